import { z } from 'zod';
import { HttpUrl, ListQuery, ProcessingMode, ShareBody, Uuid, listQuery, requireWebhookUrl } from '../core/schemas.js';
import { ExtractionSchema } from '../extract/schemas.js';
import { checkClassifiers, type ClassifierInput } from '../extract/classifiers.js';
import { renderField } from '../web/render/schema.js';

export const CrawlStatus = z.enum(['pending', 'running', 'completed', 'failed', 'cancelled']);
export const Expansion = z.enum(['none', 'internal', 'external', 'both']);
export const RetryStrategy = z.enum(['none', 'auto', 'premium_only']);

export const MAX_SYNC_PAGES = 10;

const depth = z.number().int().min(1).max(10);

export const LinkExtractionConfig = z
  .strictObject({
    max_depth: depth.optional().describe('Link depth from the seeds, 1 to 10'),
    url_patterns: z.array(z.string().min(1).max(500)).max(50).optional().describe('Follow only URLs matching one of these'),
    exclude_patterns: z.array(z.string().min(1).max(500)).max(50).optional().describe('Never follow URLs matching these'),
    detect_pagination: z.boolean().optional().describe('Follow rel=next and page=N listings without spending depth'),
  })
  .meta({ id: 'LinkExtractionConfig' });

export const BudgetConfig = z
  .strictObject({
    max_pages: z.number().int().min(1).max(1000).optional(),
    max_depth: depth.optional(),
    max_credits: z.number().int().min(1).optional(),
  })
  .meta({ id: 'BudgetConfig' });

/** AI filters; the spec cuts the set of types off, so any type name is accepted and checked by the crawler. */
export const Classifier = z.looseObject({ type: z.string().min(1).max(100) }).meta({ id: 'Classifier' });

export const CrawlFields = {
  urls: z.array(HttpUrl).min(1).max(100).describe('1 to 100 seed URLs'),
  max_pages: z.number().int().min(1).max(1000).default(10).describe('1 to 1000; sync mode at most 10'),
  // The spec's parameter reference lists async and sync, its machine-readable schema also webhook: all three work.
  processing_mode: ProcessingMode.default('async'),
  // The spec's two sources disagree on the default (false vs true); false keeps the basic price unless asked.
  classify_documents: z.boolean().default(false).describe('AI classification; advanced pricing'),
  generate_summary: z.boolean().default(false).describe('Free'),
  extraction_schema: ExtractionSchema.optional(),
  expansion: Expansion.default('none'),
  intent: z.string().trim().min(10).max(2000).optional().describe('Natural-language crawl goal, 10 to 2000 characters; advanced pricing'),
  auto_generate_intent: z.boolean().default(false).describe('Derive intent from the extraction_schema instructions'),
  session_id: Uuid.optional().describe('Runs the crawl as an operation of this session of yours (seen URLs filtered, timeline, max_operations)'),
  dry_run: z.boolean().default(false).describe('Validate and estimate without executing'),
  webhook_url: HttpUrl.optional(),
  follow_links: z.boolean().default(false).describe('Legacy: same as expansion internal'),
  sitemap: z
    .enum(['skip', 'include'])
    .default('skip')
    .describe(
      "wvr extension. include: before the first fetch, the URLs the seed sites' sitemaps list (as POST /v1/map reads them) join the frontier at depth 1, " +
        'held to the same scope, pattern and depth rules as links; implies expansion internal when expansion is none. No extra charge.',
    ),
  link_extraction_config: LinkExtractionConfig.optional(),
  classifiers: z.array(Classifier).max(20).optional(),
  budget_config: BudgetConfig.optional(),
  use_cache: z.boolean().default(false).describe('Serve pages from the global cache at half price'),
  cache_max_age: z.number().int().min(0).default(86_400).describe('Cache TTL in seconds'),
  premium_proxy: z.boolean().default(false),
  ultra_premium: z.boolean().default(false),
  retry_strategy: RetryStrategy.default('auto'),
  render: renderField(),
};

interface CrawlRuleFields {
  processing_mode: string;
  max_pages: number;
  auto_generate_intent: boolean;
  extraction_schema?: Record<string, string> | undefined;
  webhook_url?: string | undefined;
  classifiers?: readonly ClassifierInput[] | undefined;
  intent?: string | undefined;
}

export function crawlRules<T extends CrawlRuleFields>(
  body: T,
  ctx: z.RefinementCtx<T>,
): void {
  requireWebhookUrl(body, ctx);
  if (body.processing_mode === 'sync' && body.max_pages > MAX_SYNC_PAGES) {
    ctx.addIssue({
      code: 'custom',
      message: `must be at most ${MAX_SYNC_PAGES} in sync mode (use async and poll, or webhook)`,
      path: ['max_pages'],
      params: { code: 'sync_max_pages_exceeded' },
    });
  }
  if (body.auto_generate_intent && !body.extraction_schema) {
    ctx.addIssue({
      code: 'custom',
      message: 'needs an extraction_schema to derive the intent from',
      path: ['auto_generate_intent'],
      params: { code: 'auto_generate_intent_requires_schema' },
    });
  }
  checkClassifiers(body, ctx);
}

export const CrawlBody = z.strictObject(CrawlFields).superRefine(crawlRules).meta({ id: 'CrawlRequest' });
export type CrawlInput = z.output<typeof CrawlBody>;

export const CrawlEstimateBody = z.strictObject(CrawlFields).superRefine(crawlRules).meta({ id: 'CrawlEstimateRequest' });

export const CrawlListQuery = listQuery(CrawlStatus);

/** How much of a crawl's documents a read carries; the default keeps the full job detail. */
export const CrawlGetQuery = z
  .object({
    documents: z
      .enum(['all', 'top', 'none'])
      .default('all')
      .describe('all: every document (default); top: the documents_limit most important so far; none: stats only, for polling'),
    documents_limit: z.coerce.number().int().min(1).max(100).default(10).describe('With documents=top: how many, 1 to 100'),
  })
  .meta({ id: 'CrawlGetQuery' });
export type CrawlGetInput = z.output<typeof CrawlGetQuery>;

/** A poll's light read: the stats and the best pages so far, by name only. */
export const CrawlProgressQuery = z
  .object({
    best_pages: z.coerce.number().int().min(0).max(100).default(5).describe('How many of the most important pages so far come along, 0 to 100'),
  })
  .meta({ id: 'CrawlProgressQuery' });

export const CrawlDocumentsQuery = ListQuery.extend({
  order: z.enum(['crawl', 'importance']).default('crawl').describe('crawl: the order pages were discovered; importance: most important first'),
}).meta({ id: 'CrawlDocumentsQuery' });
export const CrawlShareBody = ShareBody;
