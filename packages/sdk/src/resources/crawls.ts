import type { Request } from '../transport.js';
import { operationCaller, type Body, type DryRunAware, type Query, type Schemas } from './types.js';
import { last, watch, type WatchOptions } from './watch.js';

export type CrawlBody = Body<'createCrawl'>;
export type CrawlEstimateBody = Body<'estimateCrawl'>;
export type CrawlDetail = Schemas['CrawlDetail'];
export type CrawlDryRun = Schemas['CrawlDryRun'];
export type CrawlListQuery = Query<'listCrawls'>;

/** How much of the documents a read carries: all (default), the `documents_limit` most important, or none. */
export type CrawlGetQuery = Query<'getCrawl'>;
export type CrawlDocumentsQuery = Query<'listCrawlDocuments'>;
/** How many of the best pages so far come along: `best_pages`, 0 to 100 (default 5). */
export type CrawlProgressQuery = Query<'getCrawlProgress'>;
const ENDED: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

export const crawlsResource = (request: Request) => {
  const call = operationCaller(request);
  const create = ((body: CrawlBody) => call('createCrawl', { body })) as DryRunAware<CrawlBody, CrawlDetail, CrawlDryRun>;
  const get = (id: string, query: CrawlGetQuery = {}) => call('getCrawl', { id, query });
  const progress = (id: string, query: CrawlProgressQuery = {}) => call('getCrawlProgress', { id, query });
  /** Progress of a crawl until it ends: one light read per poll (status, stats and the best pages so far, no documents). */
  const watchCrawl = (id: string, options: WatchOptions = {}) => watch(`crawl ${id}`, () => progress(id), (c) => ENDED.has(c.status), options);
  return {
    /** The crawl, or (with `dry_run: true`) what it would cost. */
    create,
    /** Starts a crawl, waits for it to end, and returns it with its documents (`get` query options apply). */
    createAndWait: async (body: Omit<CrawlBody, 'dry_run'>, options: WatchOptions & CrawlGetQuery = {}): Promise<CrawlDetail> => {
      const { documents, documents_limit, ...wait } = options;
      const started = await create({ ...body, dry_run: false });
      if (!ENDED.has(started.status)) await last(watchCrawl(started.id, wait));
      return get(started.id, { documents, documents_limit });
    },
    watch: watchCrawl,
    estimate: (body: CrawlEstimateBody) => call('estimateCrawl', { body }),
    list: (query: CrawlListQuery = {}) => call('listCrawls', { query }),
    get,
    /** The light read to poll: status, stats and the best pages so far by name and score, none of their content. */
    progress,
    /** A page of the crawl's documents; works with paginate(). */
    documents: (id: string, query: CrawlDocumentsQuery = {}) => call('listCrawlDocuments', { id, query }),
    cancel: (id: string) => call('cancelCrawl', { id }),
    abort: (id: string) => call('abortCrawl', { id }),
    execute: (id: string) => call('executeCrawl', { id }),
    share: (id: string, body: Body<'shareCrawl'>) => call('shareCrawl', { id, body }),
    getPublic: (id: string) => call('getPublicCrawl', { id }),
  };
};
