import { IdParams } from '../core/schemas.js';
import { AskResponseSchema } from '../ask/schemas.js';
import { CrawlCreatedSchema } from '../crawl/responses.js';
import { SearchResponseSchema } from '../search/schemas.js';
import { defineOperation } from '../accounts/operation.js';
import {
  PublicSessionSchema,
  PublicSessionTimelineSchema,
  SessionAskBody,
  SessionCrawlBody,
  SessionCreateBody,
  SessionDetailSchema,
  SessionListQuery,
  SessionListSchema,
  SessionPatchBody,
  SessionSchema,
  SessionSearchBody,
  SessionShareBody,
  SessionShareSchema,
  SessionTimelineSchema,
} from './schemas.js';
import type { SessionRunners } from './runners.js';
import type { SessionsService } from './service.js';

type Services = { sessions: SessionsService };
type Runners = { sessionRunners: SessionRunners };
const base = { scope: 'sessions', tag: 'sessions' } as const;
const publicBase = { scope: 'public', tag: 'public' } as const;

export const sessionOperations = {
  create: defineOperation({
    ...base,
    id: 'createSession',
    summary: 'Create a session',
    description: 'At most 100 active or completed sessions per user; the 101st answers 409 session_limit_reached.',
    body: SessionCreateBody,
    output: SessionSchema,
    run: (s: Services, principal, { body }) => s.sessions.create(principal, body),
  }),
  list: defineOperation({
    ...base,
    id: 'listSessions',
    summary: 'List your sessions',
    description: 'With include_shared, sessions shared with your organizations come separately in shared_sessions.',
    query: SessionListQuery,
    output: SessionListSchema,
    run: (s: Services, principal, { query }) => s.sessions.list(principal, query),
  }),
  get: defineOperation({
    ...base,
    id: 'getSession',
    summary: 'Session detail: operations, context summary and access level',
    params: IdParams,
    output: SessionDetailSchema,
    run: (s: Services, principal, { params }) => s.sessions.get(principal, params.id!),
  }),
  update: defineOperation({
    ...base,
    id: 'updateSession',
    summary: 'Change name, description, intent_context or config',
    params: IdParams,
    body: SessionPatchBody,
    output: SessionSchema,
    run: (s: Services, principal, { params, body }) => s.sessions.patch(principal, params.id!, body),
  }),
  delete: defineOperation({
    ...base,
    id: 'deleteSession',
    summary: 'Delete a session and all its operations',
    params: IdParams,
    output: SessionSchema,
    run: (s: Services, principal, { params }) => s.sessions.delete(principal, params.id!),
  }),
  complete: defineOperation({
    ...base,
    id: 'completeSession',
    summary: 'Mark a session completed; it takes no new operations afterwards',
    params: IdParams,
    output: SessionSchema,
    run: (s: Services, principal, { params }) => s.sessions.complete(principal, params.id!),
  }),
  archive: defineOperation({
    ...base,
    id: 'archiveSession',
    summary: 'Archive a completed session',
    params: IdParams,
    output: SessionSchema,
    run: (s: Services, principal, { params }) => s.sessions.archive(principal, params.id!),
  }),
  share: defineOperation({
    ...base,
    id: 'shareSession',
    summary: 'Share a session publicly or with an organization',
    description: 'Org sharing changes cascade to the search jobs and crawls the session ran.',
    params: IdParams,
    body: SessionShareBody,
    output: SessionShareSchema,
    run: (s: Services, principal, { params, body }) => s.sessions.share(principal, params.id!, body),
  }),
  timeline: defineOperation({
    ...base,
    id: 'getSessionTimeline',
    summary: 'Operations of a session in time order, with status, results and credits',
    params: IdParams,
    output: SessionTimelineSchema,
    run: (s: Services, principal, { params }) => s.sessions.timeline(principal, params.id!),
  }),
  search: defineOperation({
    ...base,
    id: 'searchInSession',
    summary: 'Search with session context',
    description: 'Costs what a plain search costs and counts against max_operations. filter_seen_urls is free.',
    params: IdParams,
    body: SessionSearchBody,
    output: SearchResponseSchema,
    run: (s: Runners, principal, { params, body }) => s.sessionRunners.search(principal, params.id!, body),
  }),
  crawl: defineOperation({
    ...base,
    id: 'crawlInSession',
    summary: 'Crawl with session context',
    description: 'Costs what a plain crawl costs and counts against max_operations. filter_seen_urls (default true) is free.',
    params: IdParams,
    body: SessionCrawlBody,
    output: CrawlCreatedSchema,
    run: (s: Runners, principal, { params, body }) => s.sessionRunners.crawl(principal, params.id!, body),
  }),
  ask: defineOperation({
    ...base,
    id: 'askInSession',
    summary: 'Ask with session context',
    description: 'Costs what a plain ask costs and counts against max_operations.',
    params: IdParams,
    body: SessionAskBody,
    output: AskResponseSchema,
    run: (s: Runners, principal, { params, body }) => s.sessionRunners.ask(principal, params.id!, body),
  }),
  /** Reads of publicly shared sessions, without a caller. */
  getPublic: defineOperation({
    ...publicBase,
    id: 'getPublicSession',
    summary: 'A publicly shared session',
    description: 'No authentication. Answers 404 unless the session has public_share; shows no owner, token or organization data.',
    params: IdParams,
    output: PublicSessionSchema,
    run: (s: Services, _principal, { params }) => s.sessions.publicGet(params.id!),
  }),
  publicTimeline: defineOperation({
    ...publicBase,
    id: 'getPublicSessionTimeline',
    summary: 'The timeline of a publicly shared session',
    description: 'No authentication. Answers 404 unless the session has public_share.',
    params: IdParams,
    output: PublicSessionTimelineSchema,
    run: (s: Services, _principal, { params }) => s.sessions.publicTimeline(params.id!),
  }),
};
