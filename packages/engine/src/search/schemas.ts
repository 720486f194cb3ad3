import { z } from 'zod';
import { HttpUrl, ProcessingMode, Uuid, listQuery, page, requireWebhookUrl } from '../core/schemas.js';
import { CreditsInfoSchema } from '../credits/schemas.js';

export const SourceType = z.enum(['academic', 'commercial', 'news', 'community', 'mixed']);
export const SearchJobStatus = z.enum(['pending', 'running', 'completed', 'failed']);

const query = z.string().trim().min(1).max(1000).describe('What to search for, at most 1000 characters');
const maxResults = z.number().int().min(1).max(20).default(10).describe('1 to 20 results');
const includeDomains = z.array(z.string().trim().min(1).max(253)).max(50).optional().describe('Only these domains');
const excludeDomains = z.array(z.string().trim().min(1).max(253)).max(50).optional().describe('Never these domains');

export const SearchFields = {
  query,
  max_results: maxResults,
  rerank_results: z.boolean().default(false).describe('Novelty reranking; advanced pricing (2 credits)'),
  generate_suggestions: z.boolean().default(false).describe('Follow-up query suggestions; advanced pricing'),
  generate_summary: z.boolean().default(true).describe('Summary of the results; free'),
  source_type: SourceType.optional(),
  include_domains: includeDomains,
  exclude_domains: excludeDomains,
  session_id: Uuid.optional().describe('Runs the search as an operation of this session of yours (its context, timeline, max_operations)'),
  processing_mode: ProcessingMode.default('async'),
  webhook_url: HttpUrl.optional().describe('Completion notification target'),
  dry_run: z.boolean().default(false).describe('Estimate the cost without executing'),
};

export const SearchBody = z.strictObject(SearchFields).superRefine(requireWebhookUrl).meta({ id: 'SearchRequest' });

const { session_id: _session, processing_mode: _mode, webhook_url: _webhook, dry_run: _dryRun, ...runFields } = SearchFields;

/**
 * What one search does, without how it is delivered or paid for: `engine.search.run` takes it,
 * and a search workflow's operation_config is exactly this.
 */
export const SearchRunBody = z.strictObject(runFields);
export type SearchRunInput = z.output<typeof SearchRunBody>;

export const QuickSearchBody = z
  .strictObject({
    query,
    max_results: maxResults,
    include_domains: includeDomains,
    exclude_domains: excludeDomains,
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

/** The longest title and description the index takes (`indexEntry` keeps the beginning of a longer one). */
export const MAX_INDEXED_TITLE = 2_000;
export const MAX_INDEXED_DESCRIPTION = 10_000;

/**
 * What the crawler (and anything else that fetched a page) hands to `engine.search.index.upsert`.
 * ownerUserId null puts the page in the public web cache, visible to everyone; otherwise only
 * the owner sees it, and those the crawl is shared with.
 */
export const IndexPageInput = z.strictObject({
  url: HttpUrl,
  title: z.string().max(MAX_INDEXED_TITLE).default(''),
  description: z.string().max(MAX_INDEXED_DESCRIPTION).default(''),
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

export const QuickSearchResponseSchema = z
  .object({
    query: z.string(),
    provider: z.string().describe('local (the engine\'s index) or searxng'),
    results: z.array(SearchResultItem),
    total: z.number().int(),
    credits: CreditsInfoSchema,
  })
  .meta({ id: 'QuickSearchResponse' });
export type QuickSearchResponse = z.infer<typeof QuickSearchResponseSchema>;

export const FullSearchResultSchema = SearchResultItem.extend({
  source_type: SourceType.describe('Decided from domain, JSON-LD type, URL and text cues; mixed when unclear'),
}).meta({ id: 'FullSearchResult' });
export type FullSearchResult = z.infer<typeof FullSearchResultSchema>;

export const SearchSummarySchema = z
  .object({
    text: z.string().describe('Sentences from the results, each followed by its citation marker [n]'),
    citations: z.array(z.object({ marker: z.number().int(), url: z.string(), title: z.string() })),
    method: z.enum(['extractive']),
  })
  .meta({ id: 'SearchSummary' });

export const SearchJobSchema = z
  .object({
    id: z.string(),
    status: SearchJobStatus,
    query: z.string(),
    provider: z.string(),
    results: z.array(FullSearchResultSchema),
    total_results: z.number().int(),
    suggested_queries: z.array(z.string()),
    summary: SearchSummarySchema.nullable(),
    options: z.object({
      max_results: z.number().int(),
      rerank_results: z.boolean(),
      generate_suggestions: z.boolean(),
      generate_summary: z.boolean(),
      source_type: SourceType.nullable(),
      processing_mode: ProcessingMode,
    }),
    session_id: z.string().nullable(),
    public_share: z.boolean(),
    error: z.string().nullable(),
    credits: CreditsInfoSchema,
    timing: z.object({
      created_at: z.string(),
      started_at: z.string().nullable(),
      completed_at: z.string().nullable(),
      duration_ms: z.number().int().nullable(),
    }),
  })
  .meta({ id: 'SearchJob' });
export type SearchJob = z.infer<typeof SearchJobSchema>;

/** `engine.search.run`: one search's answer, neither charged nor recorded. */
export interface SearchRun {
  provider: string;
  results: FullSearchResult[];
  suggested_queries: string[];
  summary: z.infer<typeof SearchSummarySchema> | null;
}

export const SearchDryRunSchema = z
  .object({
    dry_run: z.literal(true),
    query: z.string(),
    credits: z.object({
      would_consume: z.number().int(),
      pricing_tier: z.enum(['basic', 'advanced']),
      advanced_features: z.array(z.string()),
    }),
    would_succeed: z.boolean(),
    credits_balance: z.number().int(),
  })
  .meta({ id: 'SearchDryRun' });
export type SearchDryRun = z.infer<typeof SearchDryRunSchema>;

export const SearchResponseSchema = z.union([SearchJobSchema, SearchDryRunSchema]).meta({ id: 'SearchResponse' });
export type SearchResponse = z.infer<typeof SearchResponseSchema>;

export const SearchJobListSchema = page(SearchJobSchema).meta({ id: 'SearchJobList' });
export type SearchJobList = z.infer<typeof SearchJobListSchema>;

export const SearchJobShareSchema = z.object({ id: z.string(), public_share: z.boolean() }).meta({ id: 'SearchJobShare' });

export const SearchOverviewSchema = z
  .object({
    providers: z.array(
      z.object({ name: z.string(), kind: z.enum(['index', 'web']), default: z.boolean(), description: z.string() }),
    ),
    features: z.array(z.string()),
    source_types: z.array(SourceType),
    statistics: z.object({
      searches_total: z.number().int(),
      searches_by_status: z.record(z.string(), z.number().int()),
      indexed_pages_own: z.number().int(),
      indexed_pages_public: z.number().int(),
    }),
  })
  .meta({ id: 'SearchOverview' });
export type SearchOverview = z.infer<typeof SearchOverviewSchema>;

/**
 * What a session adds to a search (the sessions capability builds it from the session's
 * metadata and history and passes it to `search`).
 */
export interface SearchSessionContext {
  sessionId: string;
  /** metadata.intent.type: its query additions and +20% boosts apply. */
  intentType?: string | null;
  /** URLs the session has already returned: a soft novelty penalty under rerank_results. */
  seenUrls?: string[];
  /** filter_seen_urls: drop seenUrls outright. */
  filterSeenUrls?: boolean;
}

export interface SearchSummary {
  text: string;
  /** `[n]` in the text refers to citations[n - 1], which is results[n - 1]. */
  citations: { marker: number; url: string; title: string }[];
  method: 'extractive';
}
