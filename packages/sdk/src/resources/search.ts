import type { Request } from '../transport.js';
import { itemPath, type Schemas } from './types.js';

export type QuickSearchBody = Schemas['QuickSearchRequest'];
export type SearchBody = Schemas['SearchRequest'];
export interface SearchJobListQuery {
  limit?: number;
  offset?: number;
  status?: Schemas['SearchJob']['status'];
}

const job = itemPath('/v1/search/jobs');

export const searchResource = (request: Request) => ({
  quick: (body: QuickSearchBody) => request<Schemas['QuickSearchResponse']>('POST', '/v1/search/quick', { body }),
  /** A SearchJob, or a SearchDryRun when `dry_run` is set. */
  search: (body: SearchBody) => request<Schemas['SearchResponse']>('POST', '/v1/search', { body }),
  overview: () => request<Schemas['SearchOverview']>('GET', '/v1/search'),
  jobs: {
    list: (query: SearchJobListQuery = {}) => request<Schemas['SearchJobList']>('GET', '/v1/search/jobs', { query: { ...query } }),
    get: (id: string) => request<Schemas['SearchJob']>('GET', job(id)),
    delete: (id: string) => request<Schemas['SearchJob']>('DELETE', job(id)),
    share: (id: string, body: Schemas['PublicShareRequest']) => request<Schemas['SearchJobShare']>('POST', job(id, '/share'), { body }),
  },
});
