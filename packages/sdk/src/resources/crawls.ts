import type { Request } from '../transport.js';
import { itemPath, type DryRunAware, type Schemas } from './types.js';
import { last, watch, type WatchOptions } from './watch.js';

export type CrawlBody = Schemas['CrawlRequest'];
export type CrawlEstimateBody = Schemas['CrawlEstimateRequest'];
export type CrawlDetail = Schemas['CrawlDetail'];
export type CrawlDryRun = Schemas['CrawlDryRun'];
export interface CrawlListQuery {
  limit?: number;
  offset?: number;
  status?: Schemas['CrawlJob']['status'];
}

/** How much of the documents a read carries: all (default), the `documents_limit` most important, or none. */
export type CrawlGetQuery = Schemas['CrawlGetQuery'];
export type CrawlDocumentsQuery = Schemas['CrawlDocumentsQuery'];

const crawl = itemPath('/v1/crawls');
const ENDED: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

export const crawlsResource = (request: Request) => {
  const create = ((body: CrawlBody) => request('POST', '/v1/crawls', { body })) as DryRunAware<CrawlBody, CrawlDetail, CrawlDryRun>;
  const get = (id: string, query: CrawlGetQuery = {}) => request<CrawlDetail>('GET', crawl(id), { query: { ...query } });
  /** Progress of a crawl until it ends: one snapshot per poll (status and stats, no documents). */
  const watchCrawl = (id: string, options: WatchOptions = {}) =>
    watch(`crawl ${id}`, () => get(id, { documents: 'none' }), (c) => ENDED.has(c.status), options);
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
    estimate: (body: CrawlEstimateBody) => request<Schemas['CrawlEstimate']>('POST', '/v1/crawls/estimate', { body }),
    list: (query: CrawlListQuery = {}) => request<Schemas['CrawlList']>('GET', '/v1/crawls', { query: { ...query } }),
    get,
    /** A page of the crawl's documents; works with paginate(). */
    documents: (id: string, query: CrawlDocumentsQuery = {}) =>
      request<Schemas['CrawlDocumentList']>('GET', crawl(id, '/documents'), { query: { ...query } }),
    cancel: (id: string) => request<CrawlDetail>('DELETE', crawl(id)),
    abort: (id: string) => request<CrawlDetail>('POST', crawl(id, '/abort')),
    execute: (id: string) => request<CrawlDetail>('POST', crawl(id, '/execute')),
    share: (id: string, body: Schemas['ShareRequest']) => request<CrawlDetail>('POST', crawl(id, '/share'), { body }),
    getPublic: (id: string) => request<CrawlDetail>('GET', `/v1/public/crawls/${encodeURIComponent(id)}`),
  };
};
