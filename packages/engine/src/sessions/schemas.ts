import { z } from 'zod';
import { AskBody } from '../ask/schemas.js';
import { QueryBoolean, ShareBody, listQuery, queryInt, requireWebhookTarget } from '../core/schemas.js';
import { checkCrawlRules, crawlFields } from '../crawl/schemas.js';
import { searchFields } from '../search/schemas.js';

export const MAX_NAME_LENGTH = 255;
export const MAX_OPERATIONS_PER_SESSION = 100;

export const SessionStatus = z.enum(['active', 'completed', 'archived']);

export const IntentType = z
  .enum([
    'competitive_analysis',
    'due_diligence',
    'technical_evaluation',
    'market_research',
    'academic_research',
    'news_monitoring',
    'lead_generation',
  ])
  .describe('The kind of research; some types add query terms and reranking boosts.');

export const DomainContext = z.enum(['general', 'academic', 'news', 'technical']).describe('The subject area.');

const SessionName = z.string().min(1).max(MAX_NAME_LENGTH).describe('The session name, 1 to 255 characters.');
const Description = z.string().describe('What the session is for.');
const IntentContext = z.string().describe('The monitoring intent that guides agent behaviour.');
const MaxOperations = z
  .int()
  .min(1)
  .max(MAX_OPERATIONS_PER_SESSION)
  .describe('Operations allowed in the session, 1 to 100.');

export const SessionConfig = z
  .strictObject({
    auto_deduplicate: z.boolean().default(true).describe('Remove URLs already seen in the session.'),
    accumulate_context: z.boolean().default(true).describe('Build context from earlier operations.'),
    use_session_context: z.boolean().default(true).describe('Give that context to AI features.'),
    max_operations: MaxOperations.optional(),
  })
  .describe('Session behaviour.');

/** A patch must not reset unmentioned settings to their defaults, so its config has none. */
export const SessionConfigPatch = z
  .strictObject({
    auto_deduplicate: z.boolean().optional(),
    accumulate_context: z.boolean().optional(),
    use_session_context: z.boolean().optional(),
    max_operations: MaxOperations.optional(),
  })
  .describe('Session settings to change; others keep their values.');

/** The spec allows additional metadata properties; only the known ones are checked. */
export const SessionMetadata = z
  .looseObject({
    intent: z.looseObject({ type: IntentType.optional() }).optional(),
    tags: z.array(z.string().min(1)).optional().describe('Free-form labels; sessions can be listed by tag.'),
    domain_context: DomainContext.optional(),
  })
  .describe('Free-form metadata; intent.type, tags and domain_context are understood.');

export const SessionCreateBody = z
  .strictObject({
    name: SessionName,
    description: Description.optional(),
    intent_context: IntentContext.optional(),
    session_config: SessionConfig.prefault({}),
    metadata: SessionMetadata.optional(),
  })
  .meta({ id: 'SessionCreateRequest', description: 'Creates a research session.' });

export const SessionPatchBody = z
  .strictObject({
    name: SessionName.optional(),
    description: Description.optional(),
    intent_context: IntentContext.optional(),
    config: SessionConfigPatch.optional(),
  })
  .superRefine((body, ctx) => {
    if (Object.values(body).every((value) => value === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: 'must change at least one of name, description, intent_context, config',
        params: { code: 'patch_body_empty' },
      });
    }
  })
  .meta({ id: 'SessionPatchRequest', description: 'Changes a session; fields left out keep their values.' });

export const SessionShareBody = ShareBody.meta({
  id: 'SessionShareRequest',
  description: 'Sharing settings of a session; org sharing cascades to its search jobs and crawls.',
});

export const SessionListQuery = listQuery(SessionStatus)
  .extend({
    tag: z.string().min(1).optional().describe('Only sessions carrying this metadata tag.'),
    days_back: queryInt().min(1).default(7).describe('Only sessions active in the last N days.'),
    include_shared: QueryBoolean.default(false).describe('Also list sessions shared with the caller.'),
  })
  .meta({ description: 'Filters and paging for sessions.' });

export const SessionSearchBody = searchFields
  .extend({
    filter_seen_urls: z.boolean().default(false).describe('Drop URLs already seen in the session (free).'),
  })
  .superRefine(requireWebhookTarget)
  .meta({ id: 'SessionSearchRequest', description: 'A search that uses and feeds the session context.' });

export const SessionCrawlBody = crawlFields
  .extend({
    filter_seen_urls: z.boolean().default(true).describe('Skip URLs already seen in the session (free).'),
  })
  .superRefine(checkCrawlRules)
  .meta({ id: 'SessionCrawlRequest', description: 'A crawl that uses and feeds the session context.' });

export const SessionAskBody = AskBody.meta({ id: 'SessionAskRequest', description: 'A question answered with the session context.' });

export type SessionStatus = z.output<typeof SessionStatus>;
export type IntentType = z.output<typeof IntentType>;
export type DomainContext = z.output<typeof DomainContext>;
export type SessionConfig = z.output<typeof SessionConfig>;
export type SessionCreateBody = z.output<typeof SessionCreateBody>;
export type SessionPatchBody = z.output<typeof SessionPatchBody>;
export type SessionShareBody = z.output<typeof SessionShareBody>;
export type SessionListQuery = z.output<typeof SessionListQuery>;
export type SessionSearchBody = z.output<typeof SessionSearchBody>;
export type SessionCrawlBody = z.output<typeof SessionCrawlBody>;
export type SessionAskBody = z.output<typeof SessionAskBody>;
