import type { Request } from '../transport.js';
import { itemPath, type DryRunAware, type Schemas } from './types.js';
import { last, watch, type WatchOptions } from './watch.js';

export type QuickSearchBody = Schemas['QuickSearchRequest'];
export type SearchBody = Schemas['SearchRequest'];
export type SearchJob = Schemas['SearchJob'];
export type SearchDryRun = Schemas['SearchDryRun'];
export interface SearchJobListQuery {
  limit?: number;
  offset?: number;
  status?: SearchJob['status'];
}

const job = itemPath('/v1/search/jobs');
const ENDED: ReadonlySet<string> = new Set(['completed', 'failed']);

export const searchResource = (request: Request) => {
  const search = ((body: SearchBody) => request('POST', '/v1/search', { body })) as DryRunAware<SearchBody, SearchJob, SearchDryRun>;
  const get = (id: string) => request<SearchJob>('GET', job(id));
  /** An async search job until it ends: one snapshot per poll. */
  const watchJob = (id: string, options: WatchOptions = {}) => watch(`search job ${id}`, () => get(id), (j) => ENDED.has(j.status), options);
  return {
    quick: (body: QuickSearchBody) => request<Schemas['QuickSearchResponse']>('POST', '/v1/search/quick', { body }),
    /** The search job (sync: with results; async and webhook: pending), or (with `dry_run: true`) what it would cost. */
    search,
    /** Runs a search as an async job and waits for its results. */
    createAndWait: async (body: Omit<SearchBody, 'dry_run' | 'processing_mode'>, options: WatchOptions = {}): Promise<SearchJob> => {
      const started = await search({ ...body, processing_mode: 'async', dry_run: false });
      return ENDED.has(started.status) ? started : last(watchJob(started.id, options));
    },
    watch: watchJob,
    overview: () => request<Schemas['SearchOverview']>('GET', '/v1/search'),
    jobs: {
      list: (query: SearchJobListQuery = {}) => request<Schemas['SearchJobList']>('GET', '/v1/search/jobs', { query: { ...query } }),
      get,
      delete: (id: string) => request<SearchJob>('DELETE', job(id)),
      share: (id: string, body: Schemas['PublicShareRequest']) => request<Schemas['SearchJobShare']>('POST', job(id, '/share'), { body }),
    },
  };
};
