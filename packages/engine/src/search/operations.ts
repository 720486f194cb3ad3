import { IdParams, PublicShareBody } from '../core/schemas.js';
import { creditsText, pricing } from '../credits/pricing.js';
import { defineOperation } from '../accounts/operation.js';
import {
  QuickSearchBody,
  QuickSearchResponseSchema,
  SearchBody,
  SearchJobListQuery,
  SearchJobListSchema,
  SearchJobSchema,
  SearchJobShareSchema,
  SearchOverviewSchema,
  SearchResponseSchema,
} from './schemas.js';
import type { SearchService } from './service.js';

type Services = { search: SearchService };
const base = { scope: 'search', tag: 'search' } as const;

const fullSearch = (id: string) =>
  defineOperation({
    ...base,
    id,
    summary: 'Full search: reranking, suggestions, summary, source types; sync, async or webhook',
    description:
      `${creditsText(pricing.fullSearch({}).credits)}, ${pricing.fullSearch({ rerank_results: true }).credits} with rerank_results or generate_suggestions; generate_summary is free. With dry_run the price is returned and nothing is charged. ` +
      'sync answers with the completed job; async and webhook answer with the pending job (poll GET /v1/search/jobs/{id}; webhook also notifies webhook_url).',
    body: SearchBody,
    output: SearchResponseSchema,
    session: 'search',
    run: (s: Services, principal, { body }) => s.search.search(principal, body),
  });

export const searchOperations = {
  quick: defineOperation({
    ...base,
    id: 'quickSearch',
    summary: `Quick search: synchronous results, ${creditsText(pricing.quickSearch().credits)}`,
    body: QuickSearchBody,
    output: QuickSearchResponseSchema,
    run: (s: Services, principal, { body }) => s.search.quick(principal, body),
  }),
  overview: defineOperation({
    ...base,
    id: 'getSearchOverview',
    summary: 'Available providers, features and your search statistics',
    output: SearchOverviewSchema,
    run: (s: Services, principal) => s.search.overview(principal),
  }),
  search: fullSearch('search'),
  /** The same operation under the spec's second path. */
  create: fullSearch('createSearch'),
  list: defineOperation({
    ...base,
    id: 'listSearchJobs',
    summary: 'Your search jobs, newest first',
    query: SearchJobListQuery,
    output: SearchJobListSchema,
    run: (s: Services, principal, { query }) => s.search.list(principal, query),
  }),
  get: defineOperation({
    ...base,
    id: 'getSearchJob',
    summary: 'A search job with results, timing, suggested queries and its public flag',
    description: 'Your own jobs, and jobs shared with you; any other id answers 404.',
    params: IdParams,
    output: SearchJobSchema,
    run: (s: Services, principal, { params }) => s.search.get(principal, params.id!),
  }),
  remove: defineOperation({
    ...base,
    id: 'deleteSearchJob',
    summary: 'Remove a search job from your history',
    params: IdParams,
    output: SearchJobSchema,
    run: (s: Services, principal, { params }) => s.search.remove(principal, params.id!),
  }),
  share: defineOperation({
    ...base,
    id: 'shareSearchJob',
    summary: 'Turn public sharing of a search job on or off',
    params: IdParams,
    body: PublicShareBody,
    output: SearchJobShareSchema,
    run: (s: Services, principal, { params, body }) => s.search.share(principal, params.id!, body),
  }),
};
