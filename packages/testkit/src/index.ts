import { startSite, type Handler, type RequestLogEntry, type Site } from './server.js';
import { searchSite } from './search.js';
import { catalogueSite } from './sites/catalogue.js';
import { docsSite } from './sites/docs.js';
import { labSite, type LabOptions } from './sites/lab.js';
import { appsSite } from './sites/apps.js';
import { appsModel, type AppsModel } from './sites/apps-model.js';
import { newsSite } from './sites/news.js';
import { sitemapSite, type SitemapSiteOptions } from './sites/sitemaps.js';
import { localWebTruth, type LocalWebTruth, type Origins } from './truth.js';

export type SiteName = 'catalogue' | 'news' | 'docs' | 'lab' | 'search' | 'apps' | 'sitemaps';
export type ContentSite = 'catalogue' | 'news' | 'docs';
export type CrawledSite = ContentSite | 'lab';

export interface LocalWebOptions {
  /** Same seed, same pages, byte for byte. Default 1. */
  seed?: number;
  sizes?: {
    /** Catalogue products at version 1, up to 100,000. Default 2,000. */
    products?: number;
    /** News articles at version 1. Default 120. */
    articles?: number;
    /** Levels of the docs tree below /docs (3 children per page). Default 4. */
    docsDepth?: number;
  };
  /** Crawl-delay in robots.txt: one value for every site but search, or per site. Absent means no Crawl-delay line. */
  crawlDelaySeconds?: number | Partial<Record<CrawledSite, number>>;
  /** Options of the lab site; its crawlDelaySeconds, when set, wins over the one above. */
  lab?: LabOptions;
  /** Options of the sitemaps site (the map's nested, gzipped and broken sitemaps, or a bulk one for benchmarks). */
  sitemaps?: SitemapSiteOptions;
  /** The version the sites start at. Default 1. */
  version?: number;
}

export interface LocalWeb extends Record<SiteName, string> {
  /** The current version: the sites change between versions (pages added, removed, edited) so monitoring has work. */
  readonly version: number;
  setVersion(version: number): void;
  /** Every request any site received, in arrival order, logged server-side. */
  readonly requests: RequestLogEntry[];
  truth: LocalWebTruth;
  /** The applications' truth (texts and links each page shows once rendered), at a version (default the current one). */
  appsTruth(version?: number): AppsModel;
  close(): Promise<void>;
}

export const MAX_PRODUCTS = 100_000;

/** Starts every site on its own 127.0.0.1 port, so each is a distinct origin (politeness is per host). */
export async function startLocalWeb(options: LocalWebOptions = {}): Promise<LocalWeb> {
  const seed = options.seed ?? 1;
  const products = options.sizes?.products ?? 2_000;
  const articles = options.sizes?.articles ?? 120;
  const docsDepth = options.sizes?.docsDepth ?? 4;
  if (!Number.isInteger(products) || products < 1 || products > MAX_PRODUCTS) throw new RangeError(`sizes.products must be an integer from 1 to ${MAX_PRODUCTS}, got ${products}`);
  if (!Number.isInteger(articles) || articles < 1) throw new RangeError(`sizes.articles must be a positive integer, got ${articles}`);
  if (!Number.isInteger(docsDepth) || docsDepth < 1 || docsDepth > 8) throw new RangeError(`sizes.docsDepth must be an integer from 1 to 8, got ${docsDepth}`);
  let version = checkVersion(options.version ?? 1);
  const getVersion = () => version;
  const delay = (site: CrawledSite) => (typeof options.crawlDelaySeconds === 'number' ? options.crawlDelaySeconds : options.crawlDelaySeconds?.[site]);

  const requests: RequestLogEntry[] = [];
  const origins: Origins = { catalogue: '', news: '', docs: '' };
  const truth = localWebTruth({ seed, products, articles, docsDepth }, origins, getVersion);
  const handlers: Record<SiteName, Handler> = {
    catalogue: catalogueSite({ seed, products, crawlDelaySeconds: delay('catalogue') }, getVersion),
    news: newsSite({ seed, articles, crawlDelaySeconds: delay('news') }, getVersion),
    docs: docsSite({ seed, depth: docsDepth, crawlDelaySeconds: delay('docs') }, getVersion),
    lab: labSite({ ...options.lab, crawlDelaySeconds: options.lab?.crawlDelaySeconds ?? delay('lab') }),
    search: searchSite(truth, () => origins),
    apps: appsSite({ seed }, getVersion),
    sitemaps: sitemapSite(options.sitemaps),
  };
  const sites: Partial<Record<SiteName, Site>> = {};
  try {
    for (const name of Object.keys(handlers) as SiteName[]) sites[name] = await startSite('127.0.0.1', handlers[name], requests);
  } catch (error) {
    await Promise.all(Object.values(sites).map((site) => site.close()));
    throw error;
  }
  const started = sites as Record<SiteName, Site>;
  origins.catalogue = started.catalogue.origin;
  origins.news = started.news.origin;
  origins.docs = started.docs.origin;

  return {
    catalogue: started.catalogue.origin,
    news: started.news.origin,
    docs: started.docs.origin,
    lab: started.lab.origin,
    search: started.search.origin,
    apps: started.apps.origin,
    sitemaps: started.sitemaps.origin,
    get version() {
      return version;
    },
    setVersion(next: number) {
      version = checkVersion(next);
    },
    requests,
    truth,
    appsTruth: (at = version) => appsModel(seed, at),
    close: async () => {
      await Promise.all(Object.values(started).map((site) => site.close()));
    },
  };
}

function checkVersion(version: number): number {
  if (!Number.isInteger(version) || version < 1) throw new RangeError(`version must be an integer of 1 or more, got ${version}`);
  return version;
}

export { startSite, type Handler, type Reply, type RequestLogEntry, type Site } from './server.js';
export { search, relevance, queryTerms, RESULTS_PER_PAGE, type SearxngResponse, type SearxngResult, type SearchCategory } from './search.js';
export { CATEGORIES, type Category } from './sites/categories.js';
export { formatPrice, PER_PAGE, type Product, type ProductMarkup, type Availability } from './sites/catalogue-model.js';
export { SECTIONS, type Article } from './sites/news.js';
export { DOC_TOPICS, type DocPage } from './sites/docs.js';
export type { LocalWebTruth, PageTruth, ContentChanges, Origins } from './truth.js';
export { sitemapSite, SITEMAP_SITE_TRUTH, BULK_PER_SITEMAP, type SitemapSiteOptions } from './sites/sitemaps.js';
export { labSite, LAB_TEXT, LAB_PDF_TEXT, type LabOptions } from './sites/lab.js';
export { appsSite, type AppsOptions } from './sites/apps.js';
export { appsModel, FEED_PAGE_SIZE, type AppsModel, type AppPage, type Guide, type Item, type Post } from './sites/apps-model.js';
export { startProxy, PROXY_MARK_HEADER, type Proxy, type ProxyLogEntry } from './proxy.js';
