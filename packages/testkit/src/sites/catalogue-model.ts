import { FILLER, hash, pick, rng, sentence, slugify } from '../random.js';
import { CATEGORIES, type Category } from './categories.js';

export interface CatalogueOptions {
  seed: number;
  /** Products at version 1; later versions remove some and add a few. Up to 100,000. */
  products: number;
}

export type ProductMarkup = 'jsonld+microdata' | 'jsonld' | 'microdata' | 'dom';
export type Availability = 'InStock' | 'OutOfStock' | 'PreOrder';

/** What a perfect extractor returns for a product page. */
export interface Product {
  id: number;
  path: string;
  name: string;
  brand: string;
  sku: string;
  gtin13: string;
  price: number;
  currency: 'EUR';
  /** The price exactly as the page body prints it (€1.299,00, EUR 1299.00, 1,299.00 € or €1,299.00). */
  priceText: string;
  availability: Availability;
  rating: number;
  reviewCount: number;
  description: string;
  category: string;
  categoryName: string;
  /** Where the structured values are on the page: both, JSON-LD only, microdata only, or only DOM labels. */
  markup: ProductMarkup;
}

export const BRANDS = ['Norda', 'Veltro', 'Kestrel', 'Amberline', 'Quillo', 'Sundell', 'Ortho', 'Lumen'] as const;
export const PER_PAGE = 20;
export const SITEMAP_CHUNK = 1000;
const SALE_NOTE = 'Now on sale for a limited time.';
const C = CATEGORIES.length;
const REMOVAL_MODULUS = 17;
const MARKUPS: readonly ProductMarkup[] = ['jsonld+microdata', 'jsonld', 'microdata', 'dom'];

/**
 * Versions: from 2 on, every 17th original product is gone (410 or 404), five new ones per version step exist,
 * and every 11th product's price drops 20% with a sale note. Category membership is arithmetic
 * (id - 1) mod 24 through a seeded permutation, so listings and sitemaps index products in O(1) without lists.
 */
export function catalogueModel(options: CatalogueOptions, version: number) {
  const permutation = seededPermutation(options.seed);
  const slotOf = new Map(permutation.map((category, slot) => [category.slug, slot]));
  const total = options.products + added(version);
  const removed = (id: number) => version >= 2 && id <= options.products && id % REMOVAL_MODULUS === 0;
  const isLive = (id: number) => Number.isInteger(id) && id >= 1 && id <= total && !removed(id);
  const categoryOf = (id: number) => permutation[(id - 1) % C]!;

  /** Members of a category are ids slot+1, slot+1+C, ...; the removed ones recur every 17th member. */
  const members = (slug: string) => {
    const slot = slotOf.get(slug);
    if (slot === undefined) return null;
    const countUpTo = (limit: number) => (limit >= slot + 1 ? Math.floor((limit - slot - 1) / C) + 1 : 0);
    const base = countUpTo(options.products);
    const all = countUpTo(total);
    // the member index m whose id is a multiple of 17: (slot + 1 + C*m) ≡ 0 (mod 17)
    const skip = version >= 2 ? mod(-(slot + 1) * inverse(C, REMOVAL_MODULUS), REMOVAL_MODULUS) : -1;
    const removedBase = skip >= 0 && base > skip ? Math.floor((base - 1 - skip) / REMOVAL_MODULUS) + 1 : 0;
    const liveBase = base - removedBase;
    const count = liveBase + (all - base);
    const memberIndex = (k: number) => {
      if (k >= liveBase) return base + (k - liveBase);
      if (skip < 0) return k;
      const block = Math.floor(k / (REMOVAL_MODULUS - 1));
      const offset = k % (REMOVAL_MODULUS - 1);
      return block * REMOVAL_MODULUS + (offset < skip ? offset : offset + 1);
    };
    return { count, id: (k: number) => slot + 1 + C * memberIndex(k) };
  };

  /** The k-th (0-based) live product id of the whole catalogue, in id order. */
  const liveBase = version >= 2 ? options.products - Math.floor(options.products / REMOVAL_MODULUS) : options.products;
  const liveCount = liveBase + added(version);
  const nthLive = (k: number) => {
    if (k >= liveBase) return options.products + (k - liveBase) + 1;
    return version >= 2 ? k + Math.floor(k / (REMOVAL_MODULUS - 1)) + 1 : k + 1;
  };

  const product = (id: number): Product | null => (isLive(id) ? makeProduct(options.seed, id, categoryOf(id), version) : null);
  const listing = (slug: string, page: number) => {
    const m = members(slug);
    if (!m) return null;
    const pages = Math.max(1, Math.ceil(m.count / PER_PAGE));
    if (!Number.isInteger(page) || page < 1 || page > pages) return null;
    const ids: number[] = [];
    for (let k = (page - 1) * PER_PAGE; k < Math.min(m.count, page * PER_PAGE); k++) ids.push(m.id(k));
    return { pages, count: m.count, ids };
  };

  /**
   * Three products of the same category and three of any, all from the original catalogue and never removed,
   * so a product page stays byte-identical across versions unless the product itself changed.
   */
  const relatedIds = (id: number, random: () => number) => {
    const stable = (candidate: number) => (candidate % REMOVAL_MODULUS === 0 ? (candidate + C <= options.products ? candidate + C : candidate - C) : candidate);
    const slot = (id - 1) % C;
    const sameCount = options.products >= slot + 1 ? Math.floor((options.products - slot - 1) / C) + 1 : 0;
    const out: number[] = [];
    for (let i = 0; i < 6; i++) {
      const candidate = i < 3 ? stable(slot + 1 + C * Math.floor(random() * sameCount)) : stable(1 + Math.floor(random() * options.products));
      if (candidate !== id && candidate >= 1 && candidate <= options.products && candidate % REMOVAL_MODULUS !== 0 && !out.includes(candidate)) out.push(candidate);
    }
    return out;
  };

  return {
    version,
    total,
    relatedIds,
    liveCount,
    nthLive,
    isLive,
    /** True for ids that existed at version 1 and were removed since: these answer 410 (even) or 404 (odd). */
    wasRemoved: (id: number) => removed(id) && id >= 1,
    categories: permutation,
    categoryOf,
    members,
    product,
    listing,
  };
}

export type CatalogueModel = ReturnType<typeof catalogueModel>;

const added = (version: number) => (version >= 2 ? 5 * (version - 1) : 0);
const mod = (a: number, m: number) => ((a % m) + m) % m;
function inverse(a: number, m: number): number {
  for (let x = 1; x < m; x++) if ((a * x) % m === 1) return x;
  throw new Error(`${a} has no inverse modulo ${m}`);
}

function seededPermutation(seed: number): Category[] {
  const random = rng(seed, 'categories');
  const order = [...CATEGORIES];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

export function formatPrice(price: number, style: number): string {
  const [whole, cents] = price.toFixed(2).split('.') as [string, string];
  const grouped = (separator: string) => whole.replace(/\B(?=(\d{3})+(?!\d))/g, separator);
  switch (style % 4) {
    case 0: return `€${grouped('.')},${cents}`;
    case 1: return `EUR ${whole}.${cents}`;
    case 2: return `${grouped(',')}.${cents} €`;
    default: return `€${grouped(',')}.${cents}`;
  }
}

function makeProduct(seed: number, id: number, category: Category, version: number): Product {
  const random = rng(seed, `product:${id}`);
  const brand = pick(random, BRANDS);
  const name = `${brand} ${pick(random, category.adjectives)} ${pick(random, category.nouns)} ${100 + (id % 900)}`;
  const basePrice = Math.round((15 + random() * 2485) * 100) / 100;
  const onSale = version >= 2 && id % 11 === 0;
  const price = onSale ? Math.round(basePrice * 0.8 * 100) / 100 : basePrice;
  const style = hash(`${seed}:style:${id}`);
  const description = [sentence(random, category.keywords), sentence(random, category.keywords), sentence(random, category.keywords)].join(' ');
  return {
    id,
    path: `/product/${id}-${slugify(name)}`,
    name,
    brand,
    sku: `${category.slug.slice(0, 3).toUpperCase()}-${String(id).padStart(6, '0')}`,
    gtin13: String(4_000_000_000_000 + id * 7919).slice(0, 13),
    price,
    currency: 'EUR',
    priceText: formatPrice(price, style >>> 3),
    availability: pick(random, ['InStock', 'InStock', 'InStock', 'OutOfStock', 'PreOrder'] as const),
    rating: Math.round((3 + random() * 2) * 10) / 10,
    reviewCount: Math.floor(random() * 500),
    description: onSale ? `${description} ${SALE_NOTE}` : description,
    category: category.slug,
    categoryName: category.name,
    markup: MARKUPS[style % MARKUPS.length]!,
  };
}

/** Every word a product's title or description can contain, per category: search skips categories a query cannot match. */
export function categoryVocabulary(category: Category): Set<string> {
  const words = [category.name, ...category.adjectives, ...category.nouns, ...category.keywords, ...BRANDS, ...FILLER, SALE_NOTE].join(' ');
  return new Set(words.toLowerCase().match(/[a-z0-9]+/g) ?? []);
}
