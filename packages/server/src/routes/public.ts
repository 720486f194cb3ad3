import { CrawlDetailSchema, CrawlGetQuery, IdParams, PublicSessionSchema, PublicSessionTimelineSchema } from '@wvr/engine';
import { defineRoute } from '../route.js';

const base = { auth: 'public', tag: 'public' } as const;

/** Reads of publicly shared resources, without a token. Each capability adds its own here. */
export const publicRoutes = [
  defineRoute({
    ...base,
    operationId: 'getPublicSession',
    method: 'GET',
    path: '/public/sessions/:id',
    summary: 'A publicly shared session',
    description: 'No authentication. Answers 404 unless the session has public_share; shows no owner, token or organization data.',
    params: IdParams,
    response: PublicSessionSchema,
    handler: ({ engine, params }) => engine.sessions.publicGet(params.id!),
  }),
  defineRoute({
    ...base,
    operationId: 'getPublicSessionTimeline',
    method: 'GET',
    path: '/public/sessions/:id/timeline',
    summary: 'The timeline of a publicly shared session',
    description: 'No authentication. Answers 404 unless the session has public_share.',
    params: IdParams,
    response: PublicSessionTimelineSchema,
    handler: ({ engine, params }) => engine.sessions.publicTimeline(params.id!),
  }),
  defineRoute({
    ...base,
    operationId: 'getPublicCrawl',
    method: 'GET',
    path: '/public/crawls/:id',
    summary: 'A publicly shared crawl',
    description: 'No authentication. Answers 404 unless the crawl has public_share.',
    params: IdParams,
    query: CrawlGetQuery,
    response: CrawlDetailSchema,
    handler: ({ engine, params, query }) => engine.crawls.getPublic(params.id!, query),
  }),
];
