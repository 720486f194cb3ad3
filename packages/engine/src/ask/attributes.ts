import { terms } from '../text/tokens.js';

/** The facts a question can ask about a page, read with engine.extraction. */
export const ATTRIBUTES = ['price', 'availability', 'rating', 'brand', 'date_published', 'author'] as const;
export type Attribute = (typeof ATTRIBUTES)[number];

export interface AskedAttributes {
  attributes: Attribute[];
  /** "Which … are in stock": list only what is in stock and count the rest. */
  inStockOnly: boolean;
  /** The question's entity words, with attribute and question words taken out. */
  subject: string[];
}

const ASKS: Record<Attribute, RegExp> = {
  price: /\b(price[sd]?|pricing|costs?|how much|cheap(er|est)?|expensive)\b/i,
  availability: /\b(in stock|out of stock|stock|availab(le|ility)|sold out|can i buy|buy)\b/i,
  rating: /\b(rat(ed|ing|ings)|reviews?|stars?|scores?)\b/i,
  brand: /\b(brand|makers?|made by|manufacturer|manufactured|who makes)\b/i,
  // A bare "when" is usually about the subject's own dates ("when is the launch"), not the page's.
  date_published: /\b(published|publication date|date of publication|posted|released|release date|when was .+ (written|published|posted|released))\b/i,
  author: /\b(author|authors|who wrote|written by|byline|writer)\b/i,
};

/** Attribute words that say nothing about the subject. */
const ATTRIBUTE_WORDS = new Set(
  terms('price prices priced pricing cost costs much cheap cheaper cheapest expensive stock available availability sold buy rated rating ratings review reviews star stars score brand maker makers made manufacturer manufactured makes published publication posted released release date when written wrote author authors byline writer which what who how many do does are is they them it'),
);

const IN_STOCK_ONLY = /\b(which|what)\b[^?]*\b(in stock|available)\b/i;

/** Which attributes a question asks for, and what it asks them about. */
export function askedAttributes(question: string): AskedAttributes {
  const attributes = ATTRIBUTES.filter((a) => ASKS[a].test(question));
  return {
    attributes,
    inStockOnly: attributes.includes('availability') && IN_STOCK_ONLY.test(question),
    subject: [...new Set(terms(question).filter((t) => !ATTRIBUTE_WORDS.has(t)))],
  };
}

/** The extraction schema for the asked attributes; name (and currency with a price) say whose facts they are. */
export function extractionSchema(attributes: readonly Attribute[]): Record<string, string> {
  const schema: Record<string, string> = { name: 'The name or title of the product or article' };
  for (const a of attributes) {
    if (a === 'price') {
      schema.price = 'The current price as a number';
      schema.currency = 'The ISO currency code of the price';
    }
    if (a === 'availability') schema.availability = 'The stock status of the product';
    if (a === 'rating') {
      schema.rating = 'The average customer rating';
      schema.review_count = 'The number of customer reviews';
    }
    if (a === 'brand') schema.brand = 'The brand or manufacturer of the product';
    if (a === 'date_published') schema.date_published = 'The date the page was published';
    if (a === 'author') schema.author = 'The author who wrote the article';
  }
  return schema;
}
