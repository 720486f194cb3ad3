import { z } from 'zod';
import { AccessLevel, ShareStateSchema } from '../accounts/schemas.js';
import { page } from '../core/schemas.js';
import { CreditsInfoSchema } from '../credits/schemas.js';
import { CrawlStatus } from './schemas.js';

const score = z.number().min(0);

export const CrawlDocumentSchema = z
  .object({
    url: z.string(),
    final_url: z.string(),
    status_code: z.number().int(),
    content_type: z.string(),
    depth: z.number().int(),
    title: z.string().nullable(),
    description: z.string().nullable(),
    language: z.string().nullable(),
    published_date: z.string().nullable(),
    text: z.string().describe('Main content without navigation and boilerplate'),
    markdown: z.string(),
    links: z.array(z.object({ url: z.string(), text: z.string() })),
    metadata: z.record(z.string(), z.unknown()),
    extracted_data: z.record(z.string(), z.unknown()).optional(),
    extraction_metadata: z.record(z.string(), z.unknown()).optional(),
    classification: z.object({ label: z.string(), confidence: z.number() }).nullable(),
    summary: z.string().nullable().describe('generate_summary: this page in a few sentences'),
    from_cache: z.boolean(),
    credits: z.number().int().describe('Credits this page cost'),
    importance_score: score.describe('OPIC importance: share of the crawl graph’s cash this page holds'),
    inlink_count: z.number().int(),
    outlink_count: z.number().int(),
    hub_score: score,
    authority_score: score,
    anchor_texts: z.array(z.string()),
    fetched_at: z.string(),
  })
  .meta({ id: 'CrawlDocument' });
export type CrawlDocument = z.infer<typeof CrawlDocumentSchema>;

export const CrawlStatsSchema = z
  .object({
    pages_crawled: z.number().int(),
    pages_failed: z.number().int(),
    last_failure: z.string().nullable().describe('The last page that could not be fetched, and why'),
    pages_skipped: z.number().int().describe('Duplicates by redirect or rel=canonical'),
    pages_filtered: z.number().int().describe('Pages a classifier dropped: fetched, neither stored nor charged'),
    pages_cached: z.number().int(),
    pages_queued: z.number().int().describe('URLs waiting in the frontier (0 once the crawl has ended)'),
    max_pages: z.number().int(),
    max_depth: z.number().int(),
    credits_used: z.number().int(),
    credits_reserved: z.number().int(),
    pricing_tier: z.enum(['basic', 'advanced']),
    advanced_features: z.array(z.string()),
  })
  .meta({ id: 'CrawlStats' });

export const SmartCrawlSchema = z
  .object({
    enabled: z.boolean(),
    algorithm: z.literal('opic'),
    stats: z.object({ total_nodes: z.number().int(), total_edges: z.number().int(), avg_inlinks: z.number(), graph_density: z.number() }),
    top_pages: z.array(z.object({ url: z.string(), importance: z.number(), inlinks: z.number().int() })),
    domain_authority: z.record(z.string(), z.number()),
    efficiency: z.object({ coverage_ratio: z.number(), importance_captured: z.number(), avg_importance_per_page: z.number() }),
    hubs: z.array(z.object({ url: z.string(), score: z.number() })),
    authorities: z.array(z.object({ url: z.string(), score: z.number() })),
  })
  .meta({ id: 'SmartCrawl' });

export const CrawlJobSchema = z
  .object({
    id: z.string(),
    status: CrawlStatus,
    configuration: z.record(z.string(), z.unknown()).describe('The validated request, defaults applied'),
    stats: CrawlStatsSchema,
    session_id: z.string().nullable(),
    error: z.string().nullable(),
    scheduled_for: z.string().describe('When the crawl is (or was) due to start'),
    created_at: z.string(),
    started_at: z.string().nullable(),
    completed_at: z.string().nullable(),
  })
  .meta({ id: 'CrawlJob' });
export type CrawlJob = z.infer<typeof CrawlJobSchema>;

export const CrawlDetailSchema = CrawlJobSchema.extend({
  documents: z.array(CrawlDocumentSchema).describe('All documents in crawl order, or what the documents query parameter asked for'),
  documents_total: z.number().int().describe('Documents stored so far, whatever part of them came along'),
  classifications: z.array(z.object({ url: z.string(), label: z.string(), confidence: z.number() })),
  summary: z.string().nullable(),
  access_level: AccessLevel,
  sharing: ShareStateSchema,
  smart_crawl: SmartCrawlSchema.nullable(),
  credits: CreditsInfoSchema.optional().describe(
    'The owner only: the pages charged so far (consumed), the balance now (balance_after, with what a running crawl still holds taken out) and the tier of the page price',
  ),
}).meta({ id: 'CrawlDetail' });
export type CrawlDetail = z.infer<typeof CrawlDetailSchema>;

export const CrawlProgressSchema = CrawlJobSchema.pick({ id: true, status: true, stats: true, error: true, started_at: true, completed_at: true })
  .extend({
    documents_total: z.number().int().describe('Documents stored so far'),
    best_pages: z
      .array(
        z.object({
          url: z.string(),
          final_url: z.string(),
          title: z.string().nullable(),
          status_code: z.number().int(),
          depth: z.number().int(),
          importance_score: score,
        }),
      )
      .describe('The best_pages most important pages so far (ties in crawl order), without their content'),
  })
  .meta({ id: 'CrawlProgress' });
export type CrawlProgress = z.infer<typeof CrawlProgressSchema>;

export const CrawlEstimateSchema = z
  .object({
    cost_estimate: z.number().int().describe('Credits reserved up front: max_pages (without expansion at most the distinct seeds) x price per page, capped by budget_config.max_credits'),
    would_succeed: z.boolean(),
    credits_balance: z.number().int(),
    price_per_page: z.number().int(),
    pricing_tier: z.enum(['basic', 'advanced']),
    advanced_features: z.array(z.string()),
    max_pages: z.number().int(),
    max_depth: z.number().int(),
    smart_crawl: z.boolean(),
  })
  .meta({ id: 'CrawlEstimate' });
export type CrawlEstimate = z.infer<typeof CrawlEstimateSchema>;

export const CrawlDryRunSchema = CrawlEstimateSchema.extend({
  dry_run: z.literal(true),
  configuration: z.record(z.string(), z.unknown()),
}).meta({ id: 'CrawlDryRun' });
export type CrawlDryRun = z.infer<typeof CrawlDryRunSchema>;

export const CrawlCreatedSchema = z.union([CrawlDetailSchema, CrawlDryRunSchema]).meta({ id: 'CrawlCreated' });

export const CrawlListSchema = page(CrawlJobSchema).meta({ id: 'CrawlList' });

export const CrawlDocumentListSchema = page(CrawlDocumentSchema).meta({ id: 'CrawlDocumentList' });
export type CrawlDocumentList = z.infer<typeof CrawlDocumentListSchema>;
export type CrawlList = z.infer<typeof CrawlListSchema>;
