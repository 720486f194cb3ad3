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

/**
 * What the crawler (and anything else that fetched a page) hands to `engine.search.index.upsert`.
 * ownerUserId null puts the page in the public web cache, visible to everyone; otherwise only
 * the owner sees it, and those the crawl is shared with.
 */
export const IndexPageInput = z.strictObject({
  url: HttpUrl,
  title: z.string().max(2000).default(''),
  description: z.string().max(10_000).default(''),
  text: z.string().default(''),
  headings: z.array(z.string()).default([]),
  /** Anchor texts of links elsewhere that point at this page. */
  anchorTexts: z.array(z.string()).default([]),
  /** JSON-LD / microdata types (NewsArticle, Product, ScholarlyArticle, ...): they decide source_type. */
  schemaTypes: z.array(z.string()).default([]),
  publishedDate: z.string().nullable().default(null),
  language: z.string().nullable().default(null),
  ownerUserId: z.string().min(1).nullable(),
  crawlId: z.string().min(1).nullable().default(null),
  fetchedAt: z.union([z.string(), z.number(), z.date()]),
});
export type IndexPageInput = z.input<typeof IndexPageInput>;
