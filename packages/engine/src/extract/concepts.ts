/**
 * What a field can be about, and where each kind of value lives on real pages: JSON-LD paths
 * (schema.org), microdata/RDFa property names, meta keys (OpenGraph, product:, article:, Dublin
 * Core), visible labels, and a text pattern for the value itself.
 */
export type ValueType = 'string' | 'number' | 'date' | 'boolean' | 'list' | 'url';

export interface Concept {
  id: string;
  /** Matched against the field name's words, then the instruction. */
  match: RegExp;
  type: ValueType;
  /** JSON-LD items of these @types are read first. */
  ldTypes?: RegExp;
  ld: string[];
  microdata: string[];
  meta: string[];
  /** Visible labels in tables, definition lists and "Label: value" text. */
  labels?: RegExp;
  /** CSS selectors of elements whose text is the value on common platforms. */
  selectors?: string[];
  /** A value pattern in free text (first capture group, or the whole match). */
  pattern?: RegExp;
}

const PRODUCT = /product|offer|book|vehicle|car|individualproduct|productmodel|softwareapplication/i;
const ARTICLE = /article|posting|blog|report|webpage|creativework|recipe|video/i;
const PLACE = /organization|business|place|store|restaurant|hotel|corporation|person|event/i;

/** A price with its currency: grouped thousands (1.299,00 / 1,299.00 / 1 299,00) or plain digits (2191.88). */
export const PRICE_PATTERN =
  /(?:(?:US\$|C\$|A\$|R\$|CHF|USD|EUR|GBP|JPY|INR|[$€£¥₹₩₽])\s?(?:\d{1,3}(?:[.,\s\u00a0\u202f]\d{3})+|\d+)(?:[.,]\d{1,2})?|(?:\d{1,3}(?:[.,\s\u00a0\u202f]\d{3})+|\d+)(?:[.,]\d{1,2})?\s?(?:€|zł|kr|Kč|CHF|EUR|USD|GBP|SEK|NOK|DKK|PLN|Ft|lei|руб|₽))(?![\d])/;
const EMAIL_PATTERN = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/;
const PHONE_PATTERN = /(?:\+\d{1,3}[\s.-]?)?(?:\(\d{1,4}\)[\s.-]?)?\d{2,4}(?:[\s.-]\d{2,4}){2,4}/;

// Order matters: the first concept whose words match the field name wins, so specific ones come first.
const CONCEPTS: Concept[] = [
  { id: 'currency', match: /currenc/, type: 'string', ldTypes: PRODUCT, ld: ['offers.priceCurrency', 'offers.priceSpecification.priceCurrency', 'priceCurrency', 'baseSalary.currency'], microdata: ['priceCurrency'], meta: ['product:price:currency', 'og:price:currency'], labels: /^currency$/i },
  { id: 'review_count', match: /review.?count|num(ber)?.?of.?reviews|reviews?.?total|rating.?count|how many (reviews|ratings)/, type: 'number', ldTypes: PRODUCT, ld: ['aggregateRating.reviewCount', 'aggregateRating.ratingCount'], microdata: ['reviewCount', 'ratingCount'], meta: [], labels: /^(reviews?|ratings?)( count)?$/i, pattern: /(\d[\d,.]*)\s+(?:customer\s+)?(?:reviews|ratings)\b/i },
  { id: 'rating', match: /rating|stars|score/, type: 'number', ldTypes: PRODUCT, ld: ['aggregateRating.ratingValue', 'reviewRating.ratingValue'], microdata: ['ratingValue'], meta: [], labels: /^(rating|average rating|customer rating|stars)$/i, selectors: ['.star-rating .rating', '.rating-value', '.average-rating'], pattern: /(\d(?:[.,]\d{1,2})?)\s*(?:out of|of|\/)\s*5\b/i },
  { id: 'price', match: /price|cost|how much|amount|msrp/, type: 'number', ldTypes: PRODUCT, ld: ['offers.price', 'offers.lowPrice', 'offers.priceSpecification.price', 'price', 'offers.highPrice'], microdata: ['price', 'lowPrice'], meta: ['product:price:amount', 'og:price:amount', 'twitter:data1'], labels: /^(price|our price|sale price|cost|now|preis|prix|precio|prezzo|prijs)$/i, selectors: ['.price ins .amount', '.price .woocommerce-Price-amount', '.product__price .price-item--sale', '.price-item--regular', '.product-price', '.price', '[data-price]'], pattern: PRICE_PATTERN },
  { id: 'availability', match: /availab|in.?stock|stock|sold.?out/, type: 'string', ldTypes: PRODUCT, ld: ['offers.availability', 'availability'], microdata: ['availability'], meta: ['product:availability', 'og:availability'], labels: /^(availability|stock|in stock|status|verfügbarkeit|lieferbarkeit|disponibilité|disponibilidad|disponibilità)$/i, selectors: ['.stock', '.availability', '.product-availability'], pattern: /\b(in stock|out of stock|sold out|pre-?order|available now|backorder(?:ed)?)\b/i },
  { id: 'isbn', match: /isbn/, type: 'string', ld: ['isbn', 'workExample.isbn'], microdata: ['isbn'], meta: ['books:isbn', 'book:isbn'], labels: /^isbn(-?1[03])?$/i, pattern: /\b(97[89][\d-]{10,14}|\d{9}[\dX])\b/ },
  { id: 'gtin', match: /gtin|\bean\b|upc|barcode/, type: 'string', ldTypes: PRODUCT, ld: ['gtin13', 'gtin', 'gtin12', 'gtin14', 'gtin8'], microdata: ['gtin13', 'gtin', 'gtin12', 'gtin14', 'gtin8'], meta: ['product:upc', 'product:ean'], labels: /^(gtin(-?1[234])?|ean(-?13)?|upc|barcode)$/i, pattern: /\b(\d{13}|\d{12}|\d{8})\b/ },
  { id: 'mpn', match: /\bmpn\b|part.?number|model.?number/, type: 'string', ldTypes: PRODUCT, ld: ['mpn', 'model'], microdata: ['mpn', 'model'], meta: [], labels: /^(mpn|part number|model( number| no\.?)?|manufacturer part number)$/i },
  { id: 'sku', match: /\bsku\b|stock.?keeping|item.?(no|number|code)|product.?(code|id)|article.?number/, type: 'string', ldTypes: PRODUCT, ld: ['sku', 'offers.sku', 'productID', 'mpn', 'gtin13', 'gtin12', 'gtin'], microdata: ['sku', 'productID', 'mpn', 'gtin13', 'gtin12', 'gtin'], meta: ['product:retailer_item_id', 'product:sku'], labels: /^(sku|item( #| no\.?| number| code)?|model( #| no\.?| number)?|part( #| no\.?| number)|mpn|product (code|id)|article (no\.?|number)|art\.?-? ?nr\.?|artikelnummer|référence|réf\.?|referencia|codice)$/i, selectors: ['.sku', '.product-sku', '[data-sku]'] },
  { id: 'brand', match: /brand|manufacturer|\bmaker\b|\bmake\b|vendor/, type: 'string', ldTypes: PRODUCT, ld: ['brand.name', 'brand', 'manufacturer.name', 'manufacturer'], microdata: ['brand', 'manufacturer'], meta: ['product:brand', 'og:brand'], labels: /^(brand|manufacturer|make|vendor|hersteller|marke|marque|fabricant|marca|fabricante|produttore)$/i, selectors: ['.product__vendor', '.product-vendor', '.brand', '.posted_in a[rel=tag]'] },
  { id: 'salary', match: /salary|compensation|\bpay\b|wage/, type: 'number', ld: ['baseSalary.value.value', 'baseSalary.value.minValue', 'baseSalary.value', 'estimatedSalary.value'], microdata: ['baseSalary'], meta: [], labels: /^(salary|pay|compensation)$/i, pattern: PRICE_PATTERN },
  { id: 'author', match: /author|writer|byline|written.?by|journalist|reporter|creator/, type: 'string', ldTypes: ARTICLE, ld: ['author', 'creator'], microdata: ['author', 'creator'], meta: ['author', 'article:author', 'twitter:creator', 'dc.creator', 'parsely-author', 'sailthru.author'], labels: /^(author|written by|by|writer|posted by)$/i, selectors: ['[rel="author"]', '.author-name', '.byline__name', '.author .fn', '.author', '.byline', '.entry-author'] },
  { id: 'date_modified', match: /modified|updated|last.?(update|change|edit)/, type: 'date', ldTypes: ARTICLE, ld: ['dateModified'], microdata: ['dateModified'], meta: ['article:modified_time', 'og:updated_time', 'last-modified', 'dc.date.modified'], labels: /^(updated|last updated|modified)( on)?$/i, selectors: ['time.updated', '.updated[datetime]'] },
  { id: 'date_published', match: /date|published|posted|publication|release|when/, type: 'date', ldTypes: ARTICLE, ld: ['datePublished', 'uploadDate', 'dateCreated', 'startDate', 'datePosted', 'releaseDate'], microdata: ['datePublished', 'dateCreated', 'startDate', 'datePosted'], meta: ['article:published_time', 'date', 'dc.date', 'dc.date.issued', 'pubdate', 'publish-date', 'sailthru.date', 'parsely-pub-date'], labels: /^(published|posted|date|release date|posted on|published on)$/i, selectors: ['time[datetime]', '.published', '.entry-date', '.post-date', '.date'] },
  { id: 'email', match: /e-?mail/, type: 'string', ld: ['email', 'contactPoint.email'], microdata: ['email'], meta: ['email', 'contact:email'], labels: /^e-?mail( address)?$/i, pattern: EMAIL_PATTERN },
  { id: 'phone', match: /phone|telephone|\btel\b|mobile|call/, type: 'string', ld: ['telephone', 'contactPoint.telephone'], microdata: ['telephone'], meta: ['contact:phone_number'], labels: /^(phone|telephone|tel\.?|call us|mobile)( number)?$/i, pattern: PHONE_PATTERN },
  { id: 'city', match: /\bcity\b|\btown\b|locality/, type: 'string', ldTypes: PLACE, ld: ['address.addressLocality', 'location.address.addressLocality', 'jobLocation.address.addressLocality'], microdata: ['addressLocality'], meta: ['business:contact_data:locality'], labels: /^(city|town)$/i },
  { id: 'postal_code', match: /postal|zip|post.?code/, type: 'string', ldTypes: PLACE, ld: ['address.postalCode', 'location.address.postalCode'], microdata: ['postalCode'], meta: ['business:contact_data:postal_code'], labels: /^(postal code|zip( code)?|postcode)$/i },
  { id: 'country', match: /country/, type: 'string', ldTypes: PLACE, ld: ['address.addressCountry.name', 'address.addressCountry', 'location.address.addressCountry'], microdata: ['addressCountry'], meta: ['business:contact_data:country_name'], labels: /^country$/i },
  { id: 'address', match: /address|location|street|where/, type: 'string', ldTypes: PLACE, ld: ['address', 'location.address', 'location.name', 'jobLocation.address'], microdata: ['address', 'streetAddress', 'location'], meta: ['business:contact_data:street_address'], labels: /^(address|location|visit us|where)$/i, selectors: ['address'] },
  { id: 'hours', match: /opening|hours/, type: 'string', ld: ['openingHours'], microdata: ['openingHours'], meta: [], labels: /^(opening hours|hours|open)$/i },
  { id: 'publisher', match: /publisher|company|organi[sz]ation|employer|hiring|site.?name|outlet/, type: 'string', ld: ['publisher.name', 'hiringOrganization.name', 'organizer.name', 'publisher', 'provider.name'], microdata: ['publisher', 'hiringOrganization'], meta: ['og:site_name', 'application-name', 'publisher'], labels: /^(publisher|company|employer|organi[sz]ation)$/i },
  { id: 'ingredients', match: /ingredient/, type: 'list', ld: ['recipeIngredient', 'ingredients'], microdata: ['recipeIngredient', 'ingredients'], meta: [], selectors: ['.ingredients li', '.wprm-recipe-ingredient'] },
  { id: 'duration', match: /cook.?time|prep.?time|total.?time|duration|running.?time/, type: 'string', ld: ['totalTime', 'cookTime', 'prepTime', 'duration'], microdata: ['totalTime', 'cookTime', 'duration'], meta: [], labels: /^(total time|cook time|prep time|duration)$/i },
  { id: 'category', match: /category|section|genre|department|\btype of\b/, type: 'string', ld: ['category', 'articleSection', 'genre', 'applicationCategory'], microdata: ['category', 'articleSection', 'genre'], meta: ['article:section', 'product:category', 'parsely-section'], labels: /^(category|categories|section|genre|department|kategorie|kategorien|catégorie|categoría|categoria)$/i, selectors: ['.posted_in a', '.cat-links a', '.breadcrumbs a:last-child', '.breadcrumb li:last-child'] },
  { id: 'tags', match: /\btags?\b|keywords|topics/, type: 'list', ld: ['keywords'], microdata: ['keywords'], meta: ['article:tag', 'parsely-tags', 'keywords', 'news_keywords'], labels: /^(tags?|keywords|topics|schlagwörter|schlagworte|étiquettes|etiquetas)$/i, selectors: ['.tags a', '.tag-links a', '.tagged_as a', 'a[rel="tag"]'] },
  { id: 'image', match: /image|photo|picture|thumbnail|\bimg\b/, type: 'url', ld: ['image.url', 'image', 'thumbnailUrl', 'logo.url', 'logo'], microdata: ['image', 'thumbnailUrl'], meta: ['og:image', 'twitter:image', 'og:image:url'], selectors: [] },
  { id: 'url', match: /\burl\b|\blink\b|canonical|permalink/, type: 'url', ld: ['url', 'mainEntityOfPage.@id', 'mainEntityOfPage'], microdata: ['url'], meta: ['og:url'], selectors: [] },
  { id: 'description', match: /description|summary|overview|abstract|synopsis|about|\bblurb\b/, type: 'string', ld: ['description', 'abstract'], microdata: ['description'], meta: ['description', 'og:description', 'twitter:description', 'dc.description'], selectors: ['.product__description', '.woocommerce-product-details__short-description', '.entry-summary p', '.description', '.dek', '.standfirst'] },
  { id: 'name', match: /\bname\b|title|headline|product|heading|job/, type: 'string', ld: ['name', 'headline', 'title'], microdata: ['name', 'headline'], meta: ['og:title', 'twitter:title', 'dc.title', 'title'], selectors: ['h1', '.product_title', '.product__title', '.entry-title', '.headline'] },
];

/** The concept a field name is about. */
export function conceptOf(fieldName: string): Concept | undefined {
  const name = words(fieldName);
  return CONCEPTS.find((c) => c.match.test(name));
}

/**
 * What an instruction suggests when the name alone does not say. "The weight of the product"
 * mentions a product without asking for its name, so the broad concepts (name, description,
 * url) are left out here.
 */
export function hintOf(instruction: string): Concept | undefined {
  const text = instruction.toLowerCase();
  return CONCEPTS.find((c) => !BROAD.has(c.id) && c.match.test(text));
}

const BROAD = new Set(['name', 'description', 'url', 'category', 'address', 'date_published']);

/** `productPrice`, `product_price` and `product-price` all read as "product price". */
export const words = (identifier: string): string =>
  identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase()
    .trim();
