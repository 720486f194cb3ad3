import { z } from 'zod';
import { ListQuery, QueryBoolean, ShareBody, requireWebhookUrl } from '../core/schemas.js';
import { AskBody } from '../ask/schemas.js';
import { CrawlFields, crawlRules } from '../crawl/schemas.js';
import { SearchFields } from '../search/schemas.js';
import { DOMAIN_CONTEXTS, INTENT_TYPES, SESSION_STATUSES } from './vocabulary.js';
import { ShareStateSchema } from '../accounts/schemas.js';

export const SessionStatus = z.enum(SESSION_STATUSES);
export const IntentType = z.enum(INTENT_TYPES);
export const DomainContext = z.enum(DOMAIN_CONTEXTS);

export const SessionConfig = z
  .strictObject({
    auto_deduplicate: z.boolean().default(true).describe('Remove duplicate URLs across operations'),
    accumulate_context: z.boolean().default(true).describe('Build context from earlier operations'),
    use_session_context: z.boolean().default(true).describe('Use the context for AI features'),
    max_operations: z.number().int().min(1).max(100).optional().describe('1 to 100'),
  })
  .meta({ id: 'SessionConfig' });

/** No defaults here: a patch that leaves a field out must keep the stored value. */
export const SessionConfigPatch = z
  .strictObject({
    auto_deduplicate: z.boolean().optional(),
    accumulate_context: z.boolean().optional(),
    use_session_context: z.boolean().optional(),
    max_operations: z.number().int().min(1).max(100).optional().describe('1 to 100'),
  })
  .meta({ id: 'SessionConfigPatch' });

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
    session_config: SessionConfigPatch.optional().describe('Changes to session_config (the name create and responses use); fields left out keep their value'),
    config: SessionConfigPatch.optional().describe('The same as session_config, under its earlier name; session_config wins where both set a field'),
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

export type SessionConfigValue = z.output<typeof SessionConfig>;
export type SessionMetadataValue = z.output<typeof SessionMetadata>;
export type SessionCreateInput = z.input<typeof SessionCreateBody>;
export type SessionPatchInput = z.input<typeof SessionPatchBody>;
export type SessionListInput = z.input<typeof SessionListQuery>;

// Responses

const Counted = z.object({ value: z.string(), count: z.number().int() }).meta({ id: 'CountedValue' });

export const SessionConfigState = z
  .object({
    auto_deduplicate: z.boolean(),
    accumulate_context: z.boolean(),
    use_session_context: z.boolean(),
    max_operations: z.number().int().nullable().describe('null: no limit besides the plan'),
  })
  .meta({ id: 'SessionConfigState' });

export const OrganizationSummary = z.object({ id: z.string(), name: z.string() }).meta({ id: 'OrganizationSummary' });

export const SessionSchema = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    description: z.string().nullable(),
    intent_context: z.string().nullable(),
    status: SessionStatus,
    session_config: SessionConfigState,
    metadata: SessionMetadata,
    operation_count: z.number().int(),
    public_share: z.boolean(),
    shared_with_org: z.boolean(),
    organization_id: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    last_activity_at: z.string().describe('Auto-archive happens 7 days after this'),
    completed_at: z.string().nullable(),
    archived_at: z.string().nullable(),
    archived_reason: z.enum(['manual', 'inactivity']).nullable(),
  })
  .meta({ id: 'Session' });
export type SessionRecord = z.infer<typeof SessionSchema>;

export const SessionOperationKind = z.enum(['search', 'crawl', 'ask']);
export type SessionOperationKind = z.infer<typeof SessionOperationKind>;
export const SessionOperationStatus = z.enum(['running', 'completed', 'failed']);

/** A timeline item lists this many result URLs at most: a 1,000-page crawl's would swamp the timeline. */
export const MAX_RESULT_URLS = 100;

export const SessionOperationSchema = z
  .object({
    id: z.string().uuid(),
    seq: z.number().int().describe('1 for the first operation of the session'),
    kind: SessionOperationKind,
    status: SessionOperationStatus,
    query: z.string().nullable(),
    urls: z.array(z.string()).describe('Target URLs of a crawl'),
    result_count: z.number().int(),
    result_urls: z.array(z.string()).describe(`The URLs the operation returned after filtering, in result order (at most ${MAX_RESULT_URLS})`),
    filtered_count: z.number().int().describe('Results removed because the session had already seen their URL'),
    results_summary: z.string().nullable(),
    credits: z.number().int(),
    resource_id: z.string().nullable().describe('The search job, crawl or answer this operation produced'),
    error: z.string().nullable(),
    started_at: z.string(),
    finished_at: z.string().nullable(),
  })
  .meta({ id: 'SessionOperation' });
export type SessionOperationRecord = z.infer<typeof SessionOperationSchema>;

export const SessionContextSummary = z
  .object({
    intent_type: IntentType.nullable(),
    intent_context: z.string().nullable(),
    domain_context: DomainContext.nullable(),
    query_additions: z.array(z.string()),
    boost_document_types: z.array(z.string()),
    recent_queries: z.array(z.string()).describe('Newest last'),
    domain_frequency: z.array(Counted),
    entities: z.array(Counted),
    keywords: z.array(Counted),
    document_types: z.array(Counted),
    content_types: z.array(Counted),
    urls_seen: z.number().int(),
  })
  .meta({ id: 'SessionContextSummary' });
export type SessionContextSummaryValue = z.infer<typeof SessionContextSummary>;

export const SessionDetailSchema = SessionSchema.extend({
  operations: z.array(SessionOperationSchema),
  context_summary: SessionContextSummary,
  access_level: z.enum(['owner', 'org_viewer', 'public']),
  user_organizations: z.array(OrganizationSummary),
}).meta({ id: 'SessionDetail' });
export type SessionDetail = z.infer<typeof SessionDetailSchema>;

export const SessionListSchema = z
  .object({
    data: z.array(SessionSchema),
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
    shared_sessions: z.array(SessionSchema).optional().describe('With include_shared: sessions shared with your organizations'),
    user_organizations: z.array(OrganizationSummary).optional(),
  })
  .meta({ id: 'SessionList' });
export type SessionList = z.infer<typeof SessionListSchema>;

export const SessionTimelineSchema = z
  .object({ session_id: z.string().uuid(), data: z.array(SessionOperationSchema), total: z.number().int() })
  .meta({ id: 'SessionTimeline' });
export type SessionTimeline = z.infer<typeof SessionTimelineSchema>;

export const SessionShareSchema = z.object({ id: z.string().uuid(), ...ShareStateSchema.shape }).meta({ id: 'SessionShare' });

const PublicOperation = SessionOperationSchema.omit({ resource_id: true }).meta({ id: 'PublicSessionOperation' });

/** Only what a public link should show: no config, organization, owner or child resource ids. */
export const PublicSessionSchema = SessionSchema.pick({
  id: true,
  name: true,
  description: true,
  intent_context: true,
  status: true,
  metadata: true,
  operation_count: true,
  created_at: true,
})
  .extend({
    // Redeclared rather than picked: the auto-archive note is for owners, not public readers.
    last_activity_at: z.string(),
    access_level: z.literal('public'),
    operations: z.array(PublicOperation),
    context_summary: SessionContextSummary,
  })
  .meta({ id: 'PublicSession' });
export type PublicSession = z.infer<typeof PublicSessionSchema>;

export const PublicSessionTimelineSchema = z
  .object({ session_id: z.string().uuid(), data: z.array(PublicOperation), total: z.number().int() })
  .meta({ id: 'PublicSessionTimeline' });
export type PublicSessionTimeline = z.infer<typeof PublicSessionTimelineSchema>;

/** What a session remembers from its operations, stored as JSON on the session row. */
export interface SessionContextState {
  recent_queries: string[];
  domains: Record<string, number>;
  entities: Record<string, number>;
  keywords: Record<string, number>;
  document_types: Record<string, number>;
  content_types: Record<string, number>;
  documents_seen: number;
}
