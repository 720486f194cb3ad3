import { z } from 'zod';

/** Building blocks shared by every capability's request schemas. */

export const Uuid = z.uuid();
export const IdParams = z.object({ id: Uuid.describe('Resource id (uuid)') });

/** The longest URL accepted anywhere (seeds, webhooks, workflow steps), as browsers and most servers cap it. */
export const MAX_URL_LENGTH = 2048;

const hasCredentials = (url: string) => {
  try {
    const parsed = new URL(url);
    return parsed.username !== '' || parsed.password !== '';
  } catch {
    return false;
  }
};

/**
 * An http(s) URL of at most MAX_URL_LENGTH characters without `user:password@`: credentials
 * would be stored, sent in webhooks and echoed back in `configuration`, so they are refused.
 */
export const HttpUrl = z
  .url({ protocol: /^https?$/ })
  .max(MAX_URL_LENGTH)
  .refine((url) => !hasCredentials(url), { message: 'must not carry credentials (user:password@)', params: { code: 'url_credentials_not_allowed' } });

/** Query strings arrive as text: accept true/false (and 1/0), nothing else. */
export const QueryBoolean = z.preprocess((v) => {
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  return v;
}, z.boolean());

export const ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(10).describe('Page size, 1 to 100'),
  offset: z.coerce.number().int().min(0).default(0).describe('Items to skip'),
});

export const listQuery = <S extends z.ZodEnum>(status: S) =>
  ListQuery.extend({ status: status.optional().describe('Only items in this status') });

export const PublicShareBody = z.strictObject({ public_share: z.boolean() }).meta({ id: 'PublicShareRequest' });

export const ShareBody = z
  .strictObject({
    public_share: z.boolean().optional().describe('Anyone with the id may read it through /v1/public'),
    shared_with_org: z.boolean().optional().describe('Members of organization_id may read it'),
    organization_id: Uuid.optional().describe('Required when shared_with_org is true'),
  })
  .superRefine((body, ctx) => {
    if (body.public_share === undefined && body.shared_with_org === undefined) {
      ctx.addIssue({ code: 'custom', message: 'must set public_share or shared_with_org', path: [], params: { code: 'share_body_empty' } });
    }
    if (body.shared_with_org === true && !body.organization_id) {
      ctx.addIssue({
        code: 'custom',
        message: 'is required when shared_with_org is true',
        path: ['organization_id'],
        params: { code: 'organization_id_required' },
      });
    }
  })
  .meta({ id: 'ShareRequest' });

export const ProcessingMode = z.enum(['sync', 'async', 'webhook']);

/** webhook mode needs somewhere to deliver; shared by search and crawl. */
export function requireWebhookUrl<T extends { processing_mode?: string; webhook_url?: string | undefined }>(body: T, ctx: z.RefinementCtx<T>): void {
  if (body.processing_mode === 'webhook' && !body.webhook_url) {
    ctx.addIssue({
      code: 'custom',
      message: 'is required when processing_mode is webhook',
      path: ['webhook_url'],
      params: { code: 'webhook_url_required' },
    });
  }
}

export const page = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), total: z.number().int(), limit: z.number().int(), offset: z.number().int() });
