import {
  IdParams,
  PublicShareBody,
  QuickSearchBody,
  QuickSearchResponseSchema,
  SearchBody,
  SearchJobListQuery,
  SearchJobListSchema,
  SearchJobSchema,
  SearchJobShareSchema,
  SearchOverviewSchema,
  SearchResponseSchema,
} from '@wvr/engine';
import { defineRoute } from '../route.js';

const base = { auth: 'search', tag: 'search' } as const;

const fullSearch = (operationId: string, path: string) =>
  defineRoute({
    ...base,
    operationId,
    method: 'POST',
    path,
    summary: 'Full search: reranking, suggestions, summary, source types; sync, async or webhook',
    description:
      '1 credit, 2 with rerank_results or generate_suggestions; generate_summary is free. With dry_run the price is returned and nothing is charged. ' +
      'sync answers with the completed job; async and webhook answer with the pending job (poll GET /v1/search/jobs/{id}; webhook also notifies webhook_url).',
    body: SearchBody,
    response: SearchResponseSchema,
    handler: ({ engine, principal, body }) => engine.search.search(principal, body),
  });

export const searchRoutes = [
  defineRoute({
    ...base,
    operationId: 'quickSearch',
    method: 'POST',
    path: '/search/quick',
    summary: 'Quick search: synchronous results, 1 credit',
    body: QuickSearchBody,
    response: QuickSearchResponseSchema,
    handler: ({ engine, principal, body }) => engine.search.quick(principal, body),
  }),
  defineRoute({
    ...base,
    operationId: 'getSearchOverview',
    method: 'GET',
    path: '/search',
    summary: 'Available providers, features and your search statistics',
    response: SearchOverviewSchema,
    handler: ({ engine, principal }) => engine.search.overview(principal),
  }),
  fullSearch('search', '/search'),
  fullSearch('createSearch', '/searches'),
  defineRoute({
    ...base,
    operationId: 'listSearchJobs',
    method: 'GET',
    path: '/search/jobs',
    summary: 'Your search jobs, newest first',
    query: SearchJobListQuery,
    response: SearchJobListSchema,
    handler: ({ engine, principal, query }) => engine.search.list(principal, query),
  }),
  defineRoute({
    ...base,
    operationId: 'getSearchJob',
    method: 'GET',
    path: '/search/jobs/:id',
    summary: 'A search job with results, timing, suggested queries and its public flag',
    description: 'Your own jobs, and jobs shared with you; any other id answers 404.',
    params: IdParams,
    response: SearchJobSchema,
    handler: ({ engine, principal, params }) => engine.search.get(principal, params.id!),
  }),
  defineRoute({
    ...base,
    operationId: 'deleteSearchJob',
    method: 'DELETE',
    path: '/search/jobs/:id',
    summary: 'Remove a search job from your history',
    params: IdParams,
    response: SearchJobSchema,
    handler: ({ engine, principal, params }) => engine.search.remove(principal, params.id!),
  }),
  defineRoute({
    ...base,
    operationId: 'shareSearchJob',
    method: 'POST',
    path: '/search/jobs/:id/share',
    summary: 'Turn public sharing of a search job on or off',
    params: IdParams,
    body: PublicShareBody,
    response: SearchJobShareSchema,
    handler: ({ engine, principal, params, body }) => engine.search.share(principal, params.id!, body),
  }),
];
