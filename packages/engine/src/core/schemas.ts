import { z } from 'zod';

/**
 * Building blocks shared by every capability's request contract. The spec's limits live
 * in the capability schemas; this module holds only what several of them repeat.
 */

export const Uuid = z.uuid().describe('A UUID.');

export const IdParams = z
  .object({ id: Uuid.describe('The resource id (UUID).') })
  .meta({ description: 'Path parameters of a single-resource route.' });

/** Only web pages can be fetched or notified, so every URL the API accepts is http(s). */
export const HttpUrl = z.url({ protocol: /^https?$/ }).describe('An absolute http:// or https:// URL.');

export const ProcessingMode = z
  .enum(['async', 'sync', 'webhook'])
  .describe('async returns at once and the caller polls; sync waits for the result; webhook notifies webhook_url on completion.');

/** For `processing_mode: webhook`: without a target there is nobody to notify. */
export function requireWebhookTarget(
  body: { processing_mode: z.output<typeof ProcessingMode>; webhook_url?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if (body.processing_mode === 'webhook' && body.webhook_url === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['webhook_url'],
      message: 'is required when processing_mode is webhook',
      params: { code: 'webhook_url_required' },
    });
  }
}

/**
 * Query strings arrive as text, so booleans accept exactly "true" and "false" (and real
 * booleans from embedders); anything else, such as "yes" or "1", is a 400 rather than a guess.
 */
export const QueryBoolean = z.preprocess(
  (value) => (value === 'true' ? true : value === 'false' ? false : value),
  z.boolean(),
);

/** A query-string integer: text is coerced, then the range rules apply. */
export const queryInt = () => z.coerce.number().int();

/** List queries ignore unknown parameters (unlike bodies) so proxies and cache-busters do not break paging. */
export const ListQuery = z
  .object({
    limit: queryInt().min(1).max(100).default(10).describe('Page size, 1 to 100.'),
    offset: queryInt().min(0).default(0).describe('Number of items to skip.'),
  })
  .meta({ description: 'Paging parameters of a list route.' });

export const listQuery = <E extends z.ZodEnum>(statuses: E) =>
  ListQuery.extend({ status: statuses.optional().describe('Only items in this status.') });

export const PublicShareBody = z
  .strictObject({ public_share: z.boolean().describe('Whether anyone with the link may read the resource.') })
  .meta({ id: 'PublicShareRequest', description: 'Turns public sharing on or off.' });

export const ShareBody = z
  .strictObject({
    public_share: z.boolean().optional().describe('Whether anyone with the link may read the resource.'),
    shared_with_org: z.boolean().optional().describe('Whether members of organization_id may read the resource.'),
    organization_id: Uuid.optional().describe('The organization to share with; required when shared_with_org is true.'),
  })
  .superRefine((body, ctx) => {
    if (body.public_share === undefined && body.shared_with_org === undefined && body.organization_id === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: 'must set public_share or shared_with_org',
        params: { code: 'share_body_empty' },
      });
    }
    if (body.shared_with_org === true && body.organization_id === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['organization_id'],
        message: 'is required when shared_with_org is true',
        params: { code: 'organization_id_required' },
      });
    }
  })
  .meta({ id: 'ShareRequest', description: 'Public and organization sharing settings.' });

/** The envelope of every list response. */
export const page = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    total: z.int().min(0).describe('Items matching the query across all pages.'),
    limit: z.int().describe('The page size applied.'),
    offset: z.int().describe('The offset applied.'),
  });

export type Uuid = z.output<typeof Uuid>;
export type IdParams = z.output<typeof IdParams>;
export type ListQuery = z.output<typeof ListQuery>;
export type ProcessingMode = z.output<typeof ProcessingMode>;
export type PublicShareBody = z.output<typeof PublicShareBody>;
export type ShareBody = z.output<typeof ShareBody>;
