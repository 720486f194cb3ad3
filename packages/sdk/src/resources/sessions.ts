import type { Request } from '../transport.js';
import { itemPath, type DryRunAware, type Schemas } from './types.js';

export type SessionCreateBody = Schemas['SessionCreateRequest'];
export interface SessionListQuery {
  limit?: number;
  offset?: number;
  status?: Schemas['Session']['status'];
  tag?: string;
  days_back?: number;
  include_shared?: boolean;
}

const path = itemPath('/v1/sessions');

export const sessionsResource = (request: Request) => ({
  create: (body: SessionCreateBody) => request<Schemas['Session']>('POST', '/v1/sessions', { body }),
  list: (query: SessionListQuery = {}) => request<Schemas['SessionList']>('GET', '/v1/sessions', { query: { ...query } }),
  get: (id: string) => request<Schemas['SessionDetail']>('GET', path(id)),
  update: (id: string, body: Schemas['SessionPatchRequest']) => request<Schemas['Session']>('PATCH', path(id), { body }),
  delete: (id: string) => request<Schemas['Session']>('DELETE', path(id)),
  complete: (id: string) => request<Schemas['Session']>('POST', path(id, '/complete')),
  archive: (id: string) => request<Schemas['Session']>('POST', path(id, '/archive')),
  share: (id: string, body: Schemas['ShareRequest']) => request<Schemas['SessionShare']>('POST', path(id, '/share'), { body }),
  timeline: (id: string) => request<Schemas['SessionTimeline']>('GET', path(id, '/timeline')),
  /** The search job, or (with `dry_run: true`) what it would cost. */
  search: ((id: string, body: Schemas['SessionSearchRequest']) => request('POST', path(id, '/search'), { body })) as DryRunAware<
    Schemas['SessionSearchRequest'],
    Schemas['SearchJob'],
    Schemas['SearchDryRun'],
    [id: string]
  >,
  /** The crawl, or (with `dry_run: true`) what it would cost. */
  crawl: ((id: string, body: Schemas['SessionCrawlRequest']) => request('POST', path(id, '/crawl'), { body })) as DryRunAware<
    Schemas['SessionCrawlRequest'],
    Schemas['CrawlDetail'],
    Schemas['CrawlDryRun'],
    [id: string]
  >,
  ask: (id: string, body: Schemas['AskRequest']) => request<Schemas['AskResponse']>('POST', path(id, '/ask'), { body }),
  /** Publicly shared sessions; works without a token. */
  public: {
    get: (id: string) => request<Schemas['PublicSession']>('GET', `/v1/public/sessions/${encodeURIComponent(id)}`),
    timeline: (id: string) => request<Schemas['PublicSessionTimeline']>('GET', `/v1/public/sessions/${encodeURIComponent(id)}/timeline`),
  },
});
