import { z } from 'zod';
import { HttpUrl, ProcessingMode, Uuid, listQuery, requireWebhookUrl } from '../core/schemas.js';

export const SourceType = z.enum(['academic', 'commercial', 'news', 'community', 'mixed']);
export const SearchJobStatus = z.enum(['pending', 'running', 'completed', 'failed']);

const query = z.string().trim().min(1).max(1000).describe('What to search for, at most 1000 characters');
const maxResults = z.number().int().min(1).max(20).default(10).describe('1 to 20 results');

export const SearchFields = {
  query,
  max_results: maxResults,
  rerank_results: z.boolean().default(false).describe('Novelty reranking; advanced pricing (2 credits)'),
  generate_suggestions: z.boolean().default(false).describe('Follow-up query suggestions; advanced pricing'),
  generate_summary: z.boolean().default(true).describe('Summary of the results; free'),
  source_type: SourceType.optional(),
  session_id: Uuid.optional().describe('Links the search to a session'),
  processing_mode: ProcessingMode.default('async'),
  webhook_url: HttpUrl.optional().describe('Completion notification target'),
  dry_run: z.boolean().default(false).describe('Estimate the cost without executing'),
};

export const SearchBody = z.strictObject(SearchFields).superRefine(requireWebhookUrl).meta({ id: 'SearchRequest' });

export const QuickSearchBody = z
  .strictObject({
    query,
    max_results: maxResults,
    include_domains: z.array(z.string().trim().min(1).max(253)).max(50).optional().describe('Only these domains'),
    exclude_domains: z.array(z.string().trim().min(1).max(253)).max(50).optional().describe('Never these domains'),
  })
  .meta({ id: 'QuickSearchRequest' });

export const SearchJobListQuery = listQuery(SearchJobStatus);

export const SearchResultItem = z
  .object({
    title: z.string(),
    url: z.string(),
    description: z.string(),
    published_date: z.string().nullable(),
    relevance_score: z.number(),
  })
  .meta({ id: 'SearchResult' });
