import type { Request } from '../transport.js';
import { operationCaller, type Body, type DryRunAware, type Query, type Schemas } from './types.js';
import { last, watch, type WatchOptions } from './watch.js';

export type QuickSearchBody = Body<'quickSearch'>;
export type SearchBody = Body<'search'>;
export type SearchJob = Schemas['SearchJob'];
export type SearchDryRun = Schemas['SearchDryRun'];
export type SearchJobListQuery = Query<'listSearchJobs'>;
const ENDED: ReadonlySet<string> = new Set(['completed', 'failed']);

export const searchResource = (request: Request) => {
  const call = operationCaller(request);
  const search = ((body: SearchBody) => call('search', { body })) as DryRunAware<SearchBody, SearchJob, SearchDryRun>;
  const get = (id: string) => call('getSearchJob', { id });
  /** An async search job until it ends: one snapshot per poll. */
  const watchJob = (id: string, options: WatchOptions = {}) => watch(`search job ${id}`, () => get(id), (j) => ENDED.has(j.status), options);
  return {
    quick: (body: QuickSearchBody) => call('quickSearch', { body }),
    /** The search job (sync: with results; async and webhook: pending), or (with `dry_run: true`) what it would cost. */
    search,
    /** Runs a search as an async job and waits for its results. */
    createAndWait: async (body: Omit<SearchBody, 'dry_run' | 'processing_mode'>, options: WatchOptions = {}): Promise<SearchJob> => {
      const started = await search({ ...body, processing_mode: 'async', dry_run: false });
      return ENDED.has(started.status) ? started : last(watchJob(started.id, options));
    },
    watch: watchJob,
    overview: () => call('getSearchOverview'),
    jobs: {
      list: (query: SearchJobListQuery = {}) => call('listSearchJobs', { query }),
      get,
      delete: (id: string) => call('deleteSearchJob', { id }),
      share: (id: string, body: Body<'shareSearchJob'>) => call('shareSearchJob', { id, body }),
    },
  };
};
