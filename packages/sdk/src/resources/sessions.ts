import type { Request } from '../transport.js';
import { operationCaller, type Body, type DryRunAware, type Output, type Query, type Schemas } from './types.js';

export type SessionCreateBody = Body<'createSession'>;
export type SessionListQuery = Query<'listSessions'>;

export const sessionsResource = (request: Request) => {
  const call = operationCaller(request);
  return {
    create: (body: SessionCreateBody) => call('createSession', { body }),
    list: (query: SessionListQuery = {}) => call('listSessions', { query }),
    get: (id: string) => call('getSession', { id }),
    update: (id: string, body: Body<'updateSession'>) => call('updateSession', { id, body }),
    delete: (id: string) => call('deleteSession', { id }),
    complete: (id: string) => call('completeSession', { id }),
    archive: (id: string) => call('archiveSession', { id }),
    share: (id: string, body: Body<'shareSession'>) => call('shareSession', { id, body }),
    timeline: (id: string) => call('getSessionTimeline', { id }),
    /** The search job, or (with `dry_run: true`) what it would cost. */
    search: ((id: string, body: Body<'searchInSession'>) => call('searchInSession', { id, body })) as DryRunAware<
      Body<'searchInSession'>,
      Schemas['SearchJob'],
      Schemas['SearchDryRun'],
      [id: string]
    >,
    /** The crawl, or (with `dry_run: true`) what it would cost. */
    crawl: ((id: string, body: Body<'crawlInSession'>) => call('crawlInSession', { id, body })) as DryRunAware<
      Body<'crawlInSession'>,
      Schemas['CrawlDetail'],
      Schemas['CrawlDryRun'],
      [id: string]
    >,
    ask: (id: string, body: Body<'askInSession'>): Promise<Output<'askInSession'>> => call('askInSession', { id, body }),
    /** Publicly shared sessions; works without a token. */
    public: {
      get: (id: string) => call('getPublicSession', { id }),
      timeline: (id: string) => call('getPublicSessionTimeline', { id }),
    },
  };
};
