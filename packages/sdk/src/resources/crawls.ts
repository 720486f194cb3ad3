import type { Request } from '../transport.js';
import { itemPath, type Schemas } from './types.js';

export type CrawlBody = Schemas['CrawlRequest'];
export type CrawlEstimateBody = Schemas['CrawlEstimateRequest'];
export interface CrawlListQuery {
  limit?: number;
  offset?: number;
  status?: Schemas['CrawlJob']['status'];
}

/** How much of the documents a read carries: all (default), the `documents_limit` most important, or none. */
export type CrawlGetQuery = Schemas['CrawlGetQuery'];
export type CrawlDocumentsQuery = Schemas['CrawlDocumentsQuery'];

const crawl = itemPath('/v1/crawls');

export const crawlsResource = (request: Request) => ({
  /** A CrawlDetail, or a CrawlDryRun when `dry_run` is set. */
  create: (body: CrawlBody) => request<Schemas['CrawlCreated']>('POST', '/v1/crawls', { body }),
  estimate: (body: CrawlEstimateBody) => request<Schemas['CrawlEstimate']>('POST', '/v1/crawls/estimate', { body }),
  list: (query: CrawlListQuery = {}) => request<Schemas['CrawlList']>('GET', '/v1/crawls', { query: { ...query } }),
  get: (id: string, query: CrawlGetQuery = {}) => request<Schemas['CrawlDetail']>('GET', crawl(id), { query: { ...query } }),
  /** A page of the crawl's documents; works with paginate(). */
  documents: (id: string, query: CrawlDocumentsQuery = {}) =>
    request<Schemas['CrawlDocumentList']>('GET', crawl(id, '/documents'), { query: { ...query } }),
  cancel: (id: string) => request<Schemas['CrawlDetail']>('DELETE', crawl(id)),
  abort: (id: string) => request<Schemas['CrawlDetail']>('POST', crawl(id, '/abort')),
  execute: (id: string) => request<Schemas['CrawlDetail']>('POST', crawl(id, '/execute')),
  share: (id: string, body: Schemas['ShareRequest']) => request<Schemas['CrawlDetail']>('POST', crawl(id, '/share'), { body }),
  getPublic: (id: string) => request<Schemas['CrawlDetail']>('GET', `/v1/public/crawls/${encodeURIComponent(id)}`),
});
