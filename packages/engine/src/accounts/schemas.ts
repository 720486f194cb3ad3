import { z } from 'zod';

/**
 * The spec's plans, plus `local`: the account of the embedded CLI on its own data folder, which is
 * never refused for its balance (usage is still recorded in the ledger). A server's accounts keep the spec's plans.
 */
export const PlanSchema = z.enum(['free', 'developer', 'pro', 'local']);
export type Plan = z.infer<typeof PlanSchema>;

export const ScopeSchema = z.enum(['search', 'crawl', 'workflow', 'sessions']);
export type Scope = z.infer<typeof ScopeSchema>;
export const ALL_SCOPES: readonly Scope[] = ScopeSchema.options;

export interface Principal {
  userId: string;
  email: string;
  plan: Plan;
  /** `local` when the engine is driven in-process by its owner (the CLI), not through a token. */
  tokenId: string;
  scopes: Scope[];
  /** When the calling token expires (ISO); null or absent for a token without expiry and for the local owner. */
  tokenExpiresAt?: string | null;
}

export const TokenCreateBody = z
  .strictObject({
    name: z.string().trim().min(1).max(100).describe('A label to tell tokens apart, e.g. "ci" or "laptop".'),
    scopes: z
      .array(ScopeSchema)
      .min(1)
      .max(4)
      .refine((s) => new Set(s).size === s.length, { params: { code: 'scopes_duplicate' }, message: 'must not repeat a scope' })
      .optional()
      .describe("Scopes the token carries; default: all of the creator's scopes."),
    expires_in_days: z.number().int().min(1).max(365).optional().describe("Days until the token expires, never past the creating token's expiry; default: the creating token's expiry (none if it has none)."),
  })
  .meta({ id: 'TokenCreateRequest' });
export type TokenCreateInput = z.input<typeof TokenCreateBody>;

export const TokenRecordSchema = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    scopes: z.array(ScopeSchema),
    prefix: z.string().describe('The start of the token, for recognising it; the token itself is never shown again.'),
    created_at: z.string(),
    expires_at: z.string().nullable(),
    revoked_at: z.string().nullable(),
    last_used_at: z.string().nullable(),
  })
  .meta({ id: 'Token' });
export type TokenRecord = z.infer<typeof TokenRecordSchema>;

export const TokenCreatedSchema = TokenRecordSchema.extend({
  token: z.string().describe('The bearer token, `wvr_` followed by a JWT. Shown once: store it now.'),
}).meta({ id: 'TokenCreated' });
export type TokenCreated = z.infer<typeof TokenCreatedSchema>;

export const TokenListSchema = z.object({ data: z.array(TokenRecordSchema) }).meta({ id: 'TokenList' });
export type TokenList = z.infer<typeof TokenListSchema>;

export interface User {
  id: string;
  email: string;
  name: string | null;
  plan: Plan;
  createdAt: string;
}

export interface Organization {
  id: string;
  name: string;
  createdAt: string;
}

export const ProfileSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    plan: PlanSchema,
    created_at: z.string(),
    organizations: z.array(z.object({ id: z.string(), name: z.string() })),
    token: z.object({ id: z.string().describe('`local` for the local CLI'), scopes: z.array(ScopeSchema) }),
    rate_limits: z.object({ per_hour: z.number().int(), per_day: z.number().int() }),
  })
  .meta({ id: 'Profile' });
export type Profile = z.infer<typeof ProfileSchema>;

/** Sharing's vocabulary: here, not in sharing.ts, so other capabilities' schemas use it without loading the service. */
export const SharedResourceType = z.enum(['session', 'crawl', 'search_job', 'workflow']);
export type SharedResourceType = z.infer<typeof SharedResourceType>;

export const AccessLevel = z.enum(['owner', 'org_viewer', 'public']).meta({ id: 'AccessLevel' });
export type AccessLevel = z.infer<typeof AccessLevel>;

export const ShareStateSchema = z
  .object({
    public_share: z.boolean(),
    shared_with_org: z.boolean(),
    organization_id: z.string().nullable(),
  })
  .meta({ id: 'ShareState' });
export type ShareState = z.infer<typeof ShareStateSchema>;
