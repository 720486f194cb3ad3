import { z } from 'zod';
import { ListQuery, QueryBoolean, ShareBody } from '../core/schemas.js';
import { AskBody } from '../ask/schemas.js';
import { CrawlFields, crawlRules } from '../crawl/schemas.js';
import { SearchFields } from '../search/schemas.js';
import { requireWebhookUrl } from '../core/schemas.js';

export const SessionStatus = z.enum(['active', 'completed', 'archived']);
export const IntentType = z.enum([
  'competitive_analysis',
  'due_diligence',
  'technical_evaluation',
  'market_research',
  'academic_research',
  'news_monitoring',
  'lead_generation',
]);
export const DomainContext = z.enum(['general', 'academic', 'news', 'technical']);

export const SessionConfig = z
  .strictObject({
    auto_deduplicate: z.boolean().default(true).describe('Remove duplicate URLs across operations'),
    accumulate_context: z.boolean().default(true).describe('Build context from earlier operations'),
    use_session_context: z.boolean().default(true).describe('Use the context for AI features'),
    max_operations: z.number().int().min(1).max(100).optional().describe('1 to 100'),
  })
  .meta({ id: 'SessionConfig' });

/** Additional properties are allowed, as the spec says. */
export const SessionMetadata = z
  .looseObject({
    intent: z.looseObject({ type: IntentType.optional() }).optional(),
    tags: z.array(z.string().trim().min(1).max(50)).max(20).optional(),
    domain_context: DomainContext.optional(),
  })
  .meta({ id: 'SessionMetadata' });

const name = z.string().trim().min(1).max(255);

export const SessionCreateBody = z
  .strictObject({
    name: name.describe('Required, at most 255 characters'),
    description: z.string().max(5000).optional(),
    intent_context: z.string().max(2000).optional().describe('Monitoring intent guiding agent behaviour'),
    session_config: SessionConfig.prefault({}),
    metadata: SessionMetadata.optional(),
  })
  .meta({ id: 'SessionCreateRequest' });

export const SessionPatchBody = z
  .strictObject({
    name: name.optional(),
    description: z.string().max(5000).optional(),
    intent_context: z.string().max(2000).optional(),
    config: SessionConfig.partial().optional().describe('Changes to session_config'),
  })
  .refine((b) => Object.keys(b).length > 0, { message: 'must change at least one field', params: { code: 'patch_body_empty' } })
  .meta({ id: 'SessionPatchRequest' });

export const SessionShareBody = ShareBody;

export const SessionListQuery = ListQuery.extend({
  status: SessionStatus.optional(),
  tag: z.string().max(50).optional(),
  days_back: z.coerce.number().int().min(1).max(3650).default(7),
  include_shared: QueryBoolean.default(false),
});

export const SessionSearchBody = z
  .strictObject({ ...SearchFields, filter_seen_urls: z.boolean().default(false).describe('Free exact-URL filter') })
  .superRefine(requireWebhookUrl)
  .meta({ id: 'SessionSearchRequest' });

export const SessionCrawlBody = z
  .strictObject({ ...CrawlFields, filter_seen_urls: z.boolean().default(true).describe('Free exact-URL filter') })
  .superRefine(crawlRules)
  .meta({ id: 'SessionCrawlRequest' });

export const SessionAskBody = AskBody;
