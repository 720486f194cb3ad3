import { jsonLd, layout } from '../html.js';
import { escapeHtml, hash, pick, rng, sentence, slugify } from '../random.js';
import { gone, html, notFound, text, xml, type Handler } from '../server.js';

export interface CatalogueOptions {
  seed: number;
  products: number;
}

export interface Category {
  slug: string;
  name: string;
  keywords: readonly string[];
  nouns: readonly string[];
  adjectives: readonly string[];
}

export const CATEGORIES: readonly Category[] = [
  { slug: 'audio', name: 'Headphones & Audio', keywords: ['headphones', 'wireless', 'noise', 'cancelling', 'bluetooth', 'earbuds', 'audio', 'bass', 'speaker'], nouns: ['Headphones', 'Earbuds', 'Speaker', 'Headset'], adjectives: ['Wireless', 'Noise Cancelling', 'Bluetooth', 'Studio', 'Over-Ear'] },
  { slug: 'laptops', name: 'Laptops', keywords: ['laptop', 'processor', 'ram', 'ssd', 'display', 'battery', 'keyboard', 'notebook'], nouns: ['Laptop', 'Notebook', 'Ultrabook', 'Chromebook'], adjectives: ['Slim', 'Gaming', 'Business', 'Convertible', 'Pro'] },
  { slug: 'cameras', name: 'Cameras', keywords: ['camera', 'lens', 'sensor', 'megapixel', 'zoom', 'shutter', 'photography'], nouns: ['Camera', 'Lens', 'Camcorder', 'Action Cam'], adjectives: ['Mirrorless', 'Compact', 'Full-Frame', 'Instant', 'Telephoto'] },
  { slug: 'kitchen', name: 'Kitchen', keywords: ['kitchen', 'cooking', 'blender', 'kettle', 'stainless', 'recipe', 'coffee'], nouns: ['Blender', 'Kettle', 'Coffee Maker', 'Toaster'], adjectives: ['Stainless', 'Electric', 'Compact', 'Smart', 'Ceramic'] },
  { slug: 'garden', name: 'Garden', keywords: ['garden', 'plants', 'soil', 'watering', 'hose', 'outdoor', 'lawn'], nouns: ['Hose', 'Planter', 'Mower', 'Pruner'], adjectives: ['Outdoor', 'Cordless', 'Raised', 'Expandable', 'Heavy-Duty'] },
  { slug: 'books', name: 'Books', keywords: ['book', 'novel', 'author', 'chapters', 'paperback', 'story', 'edition'], nouns: ['Novel', 'Cookbook', 'Biography', 'Atlas'], adjectives: ['Illustrated', 'Paperback', 'Hardcover', 'Collected', 'Annotated'] },
  { slug: 'toys', name: 'Toys', keywords: ['toy', 'kids', 'puzzle', 'building', 'blocks', 'game', 'play'], nouns: ['Puzzle', 'Building Set', 'Board Game', 'Robot Kit'], adjectives: ['Wooden', 'Magnetic', 'Educational', 'Family', 'Junior'] },
  { slug: 'fitness', name: 'Fitness', keywords: ['fitness', 'workout', 'yoga', 'training', 'weights', 'running', 'gym'], nouns: ['Yoga Mat', 'Dumbbell Set', 'Jump Rope', 'Kettlebell'], adjectives: ['Adjustable', 'Non-Slip', 'Foldable', 'Weighted', 'Travel'] },
];

const BRANDS = ['Norda', 'Veltro', 'Kestrel', 'Amberline', 'Quillo', 'Sundell', 'Ortho', 'Lumen'];
const PER_PAGE = 20;

export interface Product {
  id: number;
  name: string;
  slug: string;
  path: string;
  category: Category;
  brand: string;
  sku: string;
  gtin13: string;
  price: number;
  currency: 'EUR';
  availability: 'InStock' | 'OutOfStock' | 'PreOrder';
  rating: number;
  reviews: number;
  description: string;
}

/** What the generator knows about the catalogue, without fetching: ground truth for tests and benchmarks. */
export function catalogueTruth(options: CatalogueOptions, version = 1) {
  const live = (id: number) => id >= 1 && id <= options.products + addedProducts(version) && !removedAt(id, version);
  let all: number[] | undefined;
  const byCategory = new Map<string, number[]>();
  const ids = () => (all ??= Array.from({ length: options.products + addedProducts(version) }, (_, i) => i + 1).filter(live));
  const idsOf = (category?: string) => {
    if (!category) return ids();
    let found = byCategory.get(category);
    if (!found) byCategory.set(category, (found = ids().filter((id) => categoryOf(options, id).slug === category)));
    return found;
  };
  return {
    categories: CATEGORIES,
    perPage: PER_PAGE,
    isLive: live,
    product: (id: number) => product(options, id, version),
    productIds: idsOf,
    productPaths: (category?: string) => idsOf(category).map((id) => product(options, id, version).path),
  };
}

/** From version 2 on, every 17th product is gone and five new ones exist; prices of every 11th change. */
const removedAt = (id: number, version: number) => version >= 2 && id % 17 === 0;
const addedProducts = (version: number) => (version >= 2 ? 5 * (version - 1) : 0);
const categoryOf = (options: CatalogueOptions, id: number) => CATEGORIES[hash(`${options.seed}:cat:${id}`) % CATEGORIES.length]!;

function product(options: CatalogueOptions, id: number, version: number): Product {
  const random = rng(options.seed, `product:${id}`);
  const category = categoryOf(options, id);
  const brand = pick(random, BRANDS);
  const name = `${brand} ${pick(random, category.adjectives)} ${pick(random, category.nouns)} ${100 + (id % 900)}`;
  const slug = slugify(name);
  const basePrice = Math.round((15 + random() * 985) * 100) / 100;
  const price = version >= 2 && id % 11 === 0 ? Math.round(basePrice * 0.8 * 100) / 100 : basePrice;
  return {
    id,
    name,
    slug,
    path: `/product/${id}-${slug}`,
    category,
    brand,
    sku: `${category.slug.slice(0, 3).toUpperCase()}-${String(id).padStart(6, '0')}`,
    gtin13: String(4_000_000_000_000 + id * 7919).slice(0, 13),
    price,
    currency: 'EUR',
    availability: pick(random, ['InStock', 'InStock', 'InStock', 'OutOfStock', 'PreOrder'] as const),
    rating: Math.round((3 + random() * 2) * 10) / 10,
    reviews: Math.floor(random() * 500),
    description: [sentence(random, category.keywords), sentence(random, category.keywords), sentence(random, category.keywords)].join(' ') +
      (version >= 2 && id % 11 === 0 ? ' Now on sale for a limited time.' : ''),
  };
}

export function catalogueSite(options: CatalogueOptions, getVersion: () => number): Handler {
  const nav: [string, string][] = CATEGORIES.map((c) => [`/category/${c.slug}`, c.name]);
  const page = (title: string, main: string, extra: { head?: string; breadcrumbs?: [string, string][] } = {}) =>
    layout({ title, siteName: 'Northwind Goods', nav, sidebar: '<h3>Deals</h3><a href="/deals">Weekly deals</a>', ...extra }, main);

  const truths = new Map<number, ReturnType<typeof catalogueTruth>>();
  return (url) => {
    const version = getVersion();
    let truth = truths.get(version);
    if (!truth) truths.set(version, (truth = catalogueTruth(options, version)));
    const path = url.pathname;
    if (path === '/robots.txt') return text('User-agent: *\nDisallow: /cart\nDisallow: /login\nSitemap: /sitemap-index.xml\n');
    if (path === '/') {
      const featured = [3, 8, 13, 21, 34].filter(truth.isLive).map((id) => truth.product(id));
      return html(
        page('Home', `<h1>Northwind Goods</h1><p>Everything for home, work and play, shipped from our own warehouse.</p>
<h2>Shop by category</h2><ul>${CATEGORIES.map((c) => `<li><a href="/category/${c.slug}">${escapeHtml(c.name)}</a></li>`).join('')}</ul>
<h2>Featured</h2><ul>${featured.map((p) => `<li><a href="${p.path}">${escapeHtml(p.name)}</a></li>`).join('')}</ul>
<p><a href="/cart">Your cart</a> · <a href="/login">Sign in</a></p>`),
      );
    }
    const category = /^\/category\/([a-z]+)$/.exec(path);
    if (category) {
      const cat = CATEGORIES.find((c) => c.slug === category[1]);
      if (!cat) return notFound();
      const ids = truth.productIds(cat.slug);
      const pages = Math.max(1, Math.ceil(ids.length / PER_PAGE));
      const n = Number(url.searchParams.get('page') ?? '1');
      if (!Number.isInteger(n) || n < 1 || n > pages) return notFound();
      const items = ids.slice((n - 1) * PER_PAGE, n * PER_PAGE).map((id) => truth.product(id));
      const next = n < pages ? `/category/${cat.slug}?page=${n + 1}` : null;
      const prev = n > 1 ? `/category/${cat.slug}?page=${n - 1}` : null;
      return html(
        page(`${cat.name}${n > 1 ? ` – page ${n}` : ''}`,
          `<h1>${escapeHtml(cat.name)}</h1><p>Browse ${ids.length} products in ${escapeHtml(cat.name.toLowerCase())}: ${cat.keywords.slice(0, 4).join(', ')}.</p>
<ul class="products">${items.map((p) => `<li><a href="${p.path}">${escapeHtml(p.name)}</a> <span class="price">€${p.price.toFixed(2)}</span></li>`).join('')}</ul>
<div class="pagination">${prev ? `<a href="${prev}" rel="prev">‹ Previous</a>` : ''} Page ${n} of ${pages} ${next ? `<a href="${next}" rel="next">Next ›</a>` : ''}</div>`,
          { head: next ? `<link rel="next" href="${next}">` : '', breadcrumbs: [['/', 'Home'], [`/category/${cat.slug}`, cat.name]] }),
      );
    }
    const productMatch = /^\/product\/(\d+)-[a-z0-9-]+$/.exec(path);
    if (productMatch) {
      const id = Number(productMatch[1]);
      if (id > options.products + addedProducts(version)) return notFound();
      if (removedAt(id, version)) return id % 2 === 0 ? gone() : notFound();
      const p = truth.product(id);
      if (path !== p.path) return notFound();
      const random = rng(options.seed, `related:${id}`);
      const related = Array.from({ length: 6 }, (_, i) => {
        const sameCategory = truth.productIds(p.category.slug);
        const pool = i < 3 && sameCategory.length > 1 ? sameCategory : truth.productIds();
        return truth.product(pick(random, pool));
      }).filter((r) => r.id !== id);
      return html(
        page(p.name,
          `<div itemscope itemtype="https://schema.org/Product">
<h1 itemprop="name">${escapeHtml(p.name)}</h1>
<p class="brand">by <span itemprop="brand">${p.brand}</span></p>
<div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><span class="price" itemprop="price" content="${p.price.toFixed(2)}">€${p.price.toFixed(2)}</span>
<meta itemprop="priceCurrency" content="EUR"><link itemprop="availability" href="https://schema.org/${p.availability}"> <span class="stock">${p.availability === 'InStock' ? 'In stock' : p.availability === 'PreOrder' ? 'Pre-order' : 'Out of stock'}</span></div>
<div class="description" itemprop="description"><p>${escapeHtml(p.description)}</p></div>
<table class="specs"><tr><th>SKU</th><td>${p.sku}</td></tr><tr><th>Brand</th><td>${p.brand}</td></tr><tr><th>Category</th><td>${escapeHtml(p.category.name)}</td></tr><tr><th>Rating</th><td>${p.rating} of 5 (${p.reviews} reviews)</td></tr></table>
<dl class="details"><dt>GTIN</dt><dd>${p.gtin13}</dd><dt>Availability</dt><dd>${p.availability}</dd></dl>
<p><a href="/cart?add=${id}">Add to cart</a> · <a href="/share?u=${encodeURIComponent(p.path)}">Share</a> · <a href="/print/${id}">Print</a> · <a href="${p.path}?sessionid=abc123">Permalink</a> · <a href="${p.path}?utm_source=newsletter">Newsletter link</a></p>
</div>
<h2>Customers also viewed</h2><ul class="related">${related.map((r) => `<li><a href="${r.path}">${escapeHtml(r.name)}</a></li>`).join('')}</ul>`,
          {
            head: jsonLd({
              '@context': 'https://schema.org', '@type': 'Product', name: p.name, sku: p.sku, gtin13: p.gtin13,
              brand: { '@type': 'Brand', name: p.brand }, description: p.description, category: p.category.name,
              offers: { '@type': 'Offer', price: p.price.toFixed(2), priceCurrency: p.currency, availability: `https://schema.org/${p.availability}` },
              aggregateRating: { '@type': 'AggregateRating', ratingValue: p.rating, reviewCount: p.reviews },
            }) + `<meta property="og:type" content="product"><meta name="description" content="${escapeHtml(p.description.slice(0, 150))}">`,
            breadcrumbs: [['/', 'Home'], [`/category/${p.category.slug}`, p.category.name]],
          }),
      );
    }
    if (path === '/sitemap-index.xml') {
      const ids = truth.productIds();
      const parts = Math.max(1, Math.ceil(ids.length / 1000));
      return xml(`<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${Array.from({ length: parts }, (_, i) => `<sitemap><loc>${url.origin}/sitemap-products-${i + 1}.xml</loc></sitemap>`).join('')}<sitemap><loc>${url.origin}/sitemap.xml</loc></sitemap></sitemapindex>`);
    }
    if (path === '/sitemap.xml') {
      return xml(urlset(url.origin, ['/', ...CATEGORIES.map((c) => `/category/${c.slug}`)]));
    }
    const sitemapPart = /^\/sitemap-products-(\d+)\.xml$/.exec(path);
    if (sitemapPart) {
      const part = Number(sitemapPart[1]);
      const slice = truth.productIds().slice((part - 1) * 1000, part * 1000);
      if (slice.length === 0) return notFound();
      return xml(urlset(url.origin, slice.map((id) => truth.product(id).path)));
    }
    if (['/cart', '/login', '/share', '/deals', '/about', '/privacy'].includes(path) || path.startsWith('/print/')) {
      return html(page('Account', '<h1>Please sign in</h1><form><input name="email"></form>'));
    }
    return notFound();
  };
}

const urlset = (origin: string, paths: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths.map((p) => `<url><loc>${origin}${p}</loc></url>`).join('')}</urlset>`;
