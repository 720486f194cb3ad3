import { z } from 'zod';
import { HttpUrl, ProcessingMode, ShareBody, Uuid, listQuery, requireWebhookTarget } from '../core/schemas.js';
import { ExtractionSchema } from '../extract/schemas.js';

export const MAX_SEED_URLS = 100;
export const MAX_CRAWL_PAGES = 1000;
export const MAX_SYNC_PAGES = 10;
export const MAX_LINK_DEPTH = 10;
export const MIN_INTENT_LENGTH = 10;
export const MAX_INTENT_LENGTH = 2000;
export const DEFAULT_CACHE_MAX_AGE_SECONDS = 86_400;

export const CrawlStatus = z.enum(['pending', 'running', 'completed', 'failed', 'cancelled']);

export const Expansion = z
  .enum(['none', 'internal', 'external', 'both'])
  .describe('Which discovered links to follow: none, same-site (internal), other sites (external) or both.');

export const RetryStrategy = z
  .enum(['none', 'auto', 'premium_only'])
  .describe('none fails on the first block; auto escalates proxy tiers; premium_only starts at the premium tier.');

export const Intent = z
  .string()
  .min(MIN_INTENT_LENGTH)
  .max(MAX_INTENT_LENGTH)
  .describe('A natural-language goal, 10 to 2000 characters.');

const MaxPages = z.int().min(1).max(MAX_CRAWL_PAGES);
const MaxDepth = z.int().min(1).max(MAX_LINK_DEPTH);

export const LinkExtractionConfig = z
  .strictObject({
    max_depth: MaxDepth.optional().describe('How many links away from a seed to go, 1 to 10.'),
    url_patterns: z.array(z.string().min(1)).optional().describe('Only follow URLs matching one of these patterns.'),
    exclude_patterns: z.array(z.string().min(1)).optional().describe('Never follow URLs matching these patterns.'),
    detect_pagination: z.boolean().optional().describe('Follow next-page links of paginated listings.'),
  })
  .describe('How links are discovered and filtered when expanding.');

export const BudgetConfig = z
  .strictObject({
    max_pages: MaxPages.optional().describe('Stop after this many pages, 1 to 1000.'),
    max_depth: MaxDepth.optional().describe('Never go deeper than this, 1 to 10.'),
    max_credits: z.int().min(1).optional().describe('Stop before spending more than this many credits.'),
  })
  .describe('Hard limits for the whole crawl.');

/** The spec leaves the set of classifier types open, so each filter keeps its extra keys. */
export const Classifier = z
  .looseObject({ type: z.string().min(1).describe('The classifier kind.') })
  .describe('An AI filter applied to fetched pages.');

/** The crawl request without its cross-field rules, so session crawl and workflows can reuse it. */
export const crawlFields = z.strictObject({
  urls: z.array(HttpUrl).min(1).max(MAX_SEED_URLS).describe('Seed URLs, 1 to 100.'),
  max_pages: MaxPages.default(10).describe('Pages to fetch at most, 1 to 1000 (sync mode: 10).'),
  // The parameter reference lists async and sync; the machine-readable schema adds webhook. All three are accepted.
  processing_mode: ProcessingMode.default('async'),
  // The parameter reference says false, the machine-readable schema true; false keeps basic pricing unless asked.
  classify_documents: z.boolean().default(false).describe('AI document classification (advanced pricing).'),
  generate_summary: z.boolean().default(false).describe('A summary of the crawl (free).'),
  extraction_schema: ExtractionSchema.optional(),
  expansion: Expansion.default('none'),
  intent: Intent.optional().describe('The crawl goal: enables URL scoring and junk-URL filtering (advanced pricing).'),
  auto_generate_intent: z.boolean().default(false).describe('Derive the intent from the extraction_schema instructions.'),
  session_id: Uuid.optional().describe('Links the crawl to a session.'),
  dry_run: z.boolean().default(false).describe('Validate and estimate without crawling.'),
  webhook_url: HttpUrl.optional().describe('Notified on completion; required when processing_mode is webhook.'),
  follow_links: z.boolean().default(false).describe('Legacy recursive crawling; prefer expansion.'),
  link_extraction_config: LinkExtractionConfig.optional(),
  classifiers: z.array(Classifier).optional().describe('AI filters, each an object with a type.'),
  budget_config: BudgetConfig.optional(),
  use_cache: z.boolean().default(false).describe('Serve pages from the global cache when fresh enough (50% saving).'),
  cache_max_age: z.int().min(0).default(DEFAULT_CACHE_MAX_AGE_SECONDS).describe('Cache TTL in seconds.'),
  premium_proxy: z.boolean().default(false).describe('Fetch through residential IPs.'),
  ultra_premium: z.boolean().default(false).describe('Fetch through mobile residential IPs.'),
  retry_strategy: RetryStrategy.default('auto'),
});

type CrawlFields = z.output<typeof crawlFields>;

export function checkCrawlRules(body: CrawlFields, ctx: z.RefinementCtx): void {
  requireWebhookTarget(body, ctx);
  if (body.processing_mode === 'sync' && body.max_pages > MAX_SYNC_PAGES) {
    ctx.addIssue({
      code: 'custom',
      path: ['max_pages'],
      message: `must be at most ${MAX_SYNC_PAGES} in sync mode; use async for larger crawls`,
      params: { code: 'sync_max_pages_exceeded' },
    });
  }
  requireSchemaForAutoIntent(body, ctx);
}

export function requireSchemaForAutoIntent(
  body: Pick<CrawlFields, 'auto_generate_intent' | 'extraction_schema'>,
  ctx: z.RefinementCtx,
): void {
  if (body.auto_generate_intent && body.extraction_schema === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['auto_generate_intent'],
      message: 'needs an extraction_schema to derive the intent from',
      params: { code: 'auto_generate_intent_requires_schema' },
    });
  }
}

export const CrawlBody = crawlFields
  .superRefine(checkCrawlRules)
  .meta({ id: 'CrawlRequest', description: 'Starts a crawl (1 credit per page, 2 with advanced features).' });

export const CrawlEstimateBody = crawlFields
  .superRefine(checkCrawlRules)
  .meta({ id: 'CrawlEstimateRequest', description: 'The same fields as a crawl; returns its cost without running it.' });

export const CrawlListQuery = listQuery(CrawlStatus).meta({ description: 'Filters and paging for crawl jobs.' });

export const CrawlShareBody = ShareBody.meta({ id: 'CrawlShareRequest', description: 'Sharing settings of a crawl.' });

export type CrawlStatus = z.output<typeof CrawlStatus>;
export type Expansion = z.output<typeof Expansion>;
export type RetryStrategy = z.output<typeof RetryStrategy>;
export type CrawlBody = z.output<typeof CrawlBody>;
export type CrawlEstimateBody = z.output<typeof CrawlEstimateBody>;
export type CrawlListQuery = z.output<typeof CrawlListQuery>;
export type CrawlShareBody = z.output<typeof CrawlShareBody>;
