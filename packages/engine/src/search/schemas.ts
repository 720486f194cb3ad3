import { z } from 'zod';
import { HttpUrl, ProcessingMode, Uuid, listQuery, requireWebhookTarget } from '../core/schemas.js';

export const MAX_QUERY_LENGTH = 1000;
export const MAX_SEARCH_RESULTS = 20;

export const SourceType = z
  .enum(['academic', 'commercial', 'news', 'community', 'mixed'])
  .describe('The kind of sources to favour.');

export const SearchJobStatus = z.enum(['pending', 'running', 'completed', 'failed']);

export const SearchQuery = z.string().min(1).max(MAX_QUERY_LENGTH).describe('The search query, at most 1000 characters.');

export const MaxResults = z
  .int()
  .min(1)
  .max(MAX_SEARCH_RESULTS)
  .default(10)
  .describe('How many results to return, 1 to 20.');

/** The full search request without its cross-field rules, so session search can extend it. */
export const searchFields = z.strictObject({
  query: SearchQuery,
  max_results: MaxResults,
  rerank_results: z.boolean().default(false).describe('Semantic and novelty reranking (advanced pricing, 2 credits).'),
  generate_suggestions: z.boolean().default(false).describe('Follow-up query suggestions (advanced pricing, 2 credits).'),
  generate_summary: z.boolean().default(true).describe('A summary of the results (free).'),
  source_type: SourceType.optional(),
  session_id: Uuid.optional().describe('Links the search to a session.'),
  processing_mode: ProcessingMode.default('async'),
  webhook_url: HttpUrl.optional().describe('Notified on completion; required when processing_mode is webhook.'),
  dry_run: z.boolean().default(false).describe('Estimate the cost without searching.'),
});

export const SearchBody = searchFields
  .superRefine(requireWebhookTarget)
  .meta({ id: 'SearchRequest', description: 'A full search (1 credit, 2 with rerank_results or generate_suggestions).' });

const DomainList = z.array(z.string().min(1).max(253).describe('A domain name such as example.com.'));

export const QuickSearchBody = z
  .strictObject({
    query: SearchQuery,
    max_results: MaxResults,
    include_domains: DomainList.optional().describe('Only return results from these domains.'),
    exclude_domains: DomainList.optional().describe('Never return results from these domains.'),
  })
  .meta({ id: 'QuickSearchRequest', description: 'A synchronous quick search (1 credit).' });

export const SearchJobListQuery = listQuery(SearchJobStatus).meta({ description: 'Filters and paging for search job history.' });

export const SearchResultItem = z
  .object({
    title: z.string(),
    url: z.url(),
    description: z.string(),
    published_date: z.iso.datetime({ offset: true }).optional().describe('When the page was published, if known.'),
    relevance_score: z.number().describe('Higher is more relevant to the query.'),
  })
  .meta({ id: 'SearchResultItem', description: 'One search result.' });

export type SourceType = z.output<typeof SourceType>;
export type SearchJobStatus = z.output<typeof SearchJobStatus>;
export type SearchBody = z.output<typeof SearchBody>;
export type QuickSearchBody = z.output<typeof QuickSearchBody>;
export type SearchJobListQuery = z.output<typeof SearchJobListQuery>;
export type SearchResultItem = z.output<typeof SearchResultItem>;
