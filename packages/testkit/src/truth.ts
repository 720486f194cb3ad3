import { CATEGORIES, type Category } from './sites/categories.js';
import { catalogueModel, type CatalogueModel, type Product } from './sites/catalogue-model.js';
import { docsModel, type DocPage } from './sites/docs.js';
import { newsModel, type Article, type NewsModel } from './sites/news.js';

export interface TruthConfig {
  seed: number;
  products: number;
  articles: number;
  docsDepth: number;
}

export interface Origins {
  catalogue: string;
  news: string;
  docs: string;
}

export type PageTruth =
  | { kind: 'product'; url: string; product: Product }
  | { kind: 'article'; url: string; article: Article }
  | { kind: 'doc'; url: string; doc: DocPage };

export interface ContentChanges {
  added: string[];
  removed: string[];
  edited: string[];
}

/**
 * Ground truth computed from the generators, never by fetching. Every helper takes an optional version and
 * defaults to the current one. Lists over the whole catalogue walk it (O(products)); single lookups are O(1).
 */
export function localWebTruth(config: TruthConfig, origins: Origins, currentVersion: () => number) {
  const catalogue = (version = currentVersion()) => catalogueModel({ seed: config.seed, products: config.products }, version);
  const news = (version = currentVersion()) => newsModel({ seed: config.seed, articles: config.articles }, version);
  const docs = (version = currentVersion()) => docsModel({ seed: config.seed, depth: config.docsDepth }, version);

  const productUrls = (model: CatalogueModel, category?: string) => {
    const urls: string[] = [];
    if (category) {
      const members = model.members(category);
      if (!members) throw new Error(`unknown category ${category}; one of ${CATEGORIES.map((c) => c.slug).join(', ')}`);
      for (let k = 0; k < members.count; k++) urls.push(origins.catalogue + model.product(members.id(k))!.path);
    } else {
      for (let k = 0; k < model.liveCount; k++) urls.push(origins.catalogue + model.product(model.nthLive(k))!.path);
    }
    return urls;
  };
  const articleUrls = (model: NewsModel) => Array.from({ length: model.count }, (_, i) => origins.news + model.article(i + 1)!.path);

  const page = (url: string, version = currentVersion()): PageTruth | null => {
    const parsed = new URL(url);
    const origin = parsed.origin;
    if (origin === origins.catalogue) {
      const match = /^\/product\/(\d+)-/.exec(parsed.pathname);
      const product = match ? catalogue(version).product(Number(match[1])) : null;
      return product && product.path === parsed.pathname ? { kind: 'product', url: origin + product.path, product } : null;
    }
    if (origin === origins.news) {
      const match = /^\/article\/(\d+)-/.exec(parsed.pathname);
      const article = match ? news(version).article(Number(match[1])) : null;
      return article && article.path === parsed.pathname ? { kind: 'article', url: origin + article.path, article } : null;
    }
    if (origin === origins.docs) {
      const doc = docs(version).page(parsed.pathname);
      return doc ? { kind: 'doc', url: origin + doc.path, doc } : null;
    }
    return null;
  };

  const contentUrls = (version = currentVersion()) => [
    ...productUrls(catalogue(version)),
    ...articleUrls(news(version)),
    ...[...docs(version).paths()].map((p) => origins.docs + p),
  ];

  return {
    seed: config.seed,
    categories: CATEGORIES as readonly Category[],
    /** The category whose products are the relevant subset for an intent (exact intent text or category slug). */
    categoryForIntent: (intent: string): Category | null =>
      CATEGORIES.find((c) => c.intent === intent.trim().toLowerCase() || c.slug === intent) ?? null,
    /** Absolute URLs of the live products of a category: the known relevant subset for a smart-crawl intent. */
    relevantUrls: (category: string, version?: number) => productUrls(catalogue(version), category),
    product: (id: number, version?: number) => catalogue(version).product(id),
    productUrl: (id: number, version?: number) => {
      const product = catalogue(version).product(id);
      return product ? origins.catalogue + product.path : null;
    },
    productUrls: (category?: string, version?: number) => productUrls(catalogue(version), category),
    /** A category listing page: its product URLs, the page count and the rel=next URL. */
    listing: (category: string, pageNumber = 1, version?: number) => {
      const model = catalogue(version);
      const listing = model.listing(category, pageNumber);
      if (!listing) return null;
      return {
        url: `${origins.catalogue}/category/${category}${pageNumber > 1 ? `?page=${pageNumber}` : ''}`,
        pages: listing.pages,
        count: listing.count,
        productUrls: listing.ids.map((id) => origins.catalogue + model.product(id)!.path),
        next: pageNumber < listing.pages ? `${origins.catalogue}/category/${category}?page=${pageNumber + 1}` : null,
      };
    },
    liveProductCount: (version?: number) => catalogue(version).liveCount,
    article: (id: number, version?: number) => news(version).article(id),
    articleUrls: (version?: number) => articleUrls(news(version)),
    doc: (path: string, version?: number) => docs(version).page(path),
    docUrls: (version?: number) => [...docs(version).paths()].map((p) => origins.docs + p),
    /** What a perfect extractor returns for a content page (product, article or doc), or null for anything else. */
    page,
    /** Every content page (products, articles, docs) of a version; hubs, listings and junk pages excluded. */
    contentUrls,
    /** Content pages added, removed and edited between two versions; hubs and listings change as a consequence and are not listed. */
    changes(from: number, to: number): ContentChanges {
      const before = new Set(contentUrls(from));
      const after = contentUrls(to);
      const afterSet = new Set(after);
      const edited = after.filter((url) => before.has(url) && JSON.stringify(page(url, from)) !== JSON.stringify(page(url, to)));
      return { added: after.filter((url) => !before.has(url)), removed: [...before].filter((url) => !afterSet.has(url)), edited };
    },
    models: { catalogue, news, docs },
  };
}

export type LocalWebTruth = ReturnType<typeof localWebTruth>;
