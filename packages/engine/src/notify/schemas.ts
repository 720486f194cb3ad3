import { z } from 'zod';
import { HttpUrl } from '../core/schemas.js';

export const EventKind = z.enum([
  'workflow.execution.completed',
  'workflow.changes.detected',
  'workflow.completed',
  'workflow.execution.failed',
  'crawl.completed',
  'search.completed',
]);
export type EventKind = z.infer<typeof EventKind>;

export const DeliveryChannel = z.enum(['webhook', 'email']);
export type DeliveryChannel = z.infer<typeof DeliveryChannel>;

export const DeliveryStatus = z.enum(['pending', 'delivered', 'failed']);
export type DeliveryStatus = z.infer<typeof DeliveryStatus>;

/** What a capability hands to `engine.notify.emit`. At least one target is required. */
export const EmitInput = z.strictObject({
  userId: z.string().min(1),
  kind: EventKind,
  /** The event's own fields; becomes `data` in the webhook body (see docs/webhooks.md). */
  data: z.record(z.string(), z.unknown()),
  webhookUrl: HttpUrl.optional(),
  /** `true` sends to the user's account address; a string sends there. */
  email: z.union([z.literal(true), z.email()]).optional(),
});
export type EmitInput = z.input<typeof EmitInput>;

/** The JSON body POSTed to a webhook, in the Standard Webhooks shape. */
export interface WebhookPayload {
  id: string;
  type: EventKind;
  timestamp: string;
  data: Record<string, unknown>;
}

export const DeliverySchema = z
  .object({
    id: z.string(),
    event_id: z.string(),
    kind: EventKind,
    channel: DeliveryChannel,
    target: z.string(),
    status: DeliveryStatus,
    attempts: z.number().int(),
    next_attempt_at: z.string().nullable(),
    last_error: z.string().nullable(),
    last_status_code: z.number().int().nullable(),
    created_at: z.string(),
    delivered_at: z.string().nullable(),
  })
  .meta({ id: 'WebhookDelivery' });
export type Delivery = z.infer<typeof DeliverySchema>;

export const EmittedEventSchema = z.object({
  id: z.string(),
  kind: EventKind,
  deliveries: z.array(DeliverySchema),
});
export type EmittedEvent = z.infer<typeof EmittedEventSchema>;

export const WebhookSecretSchema = z
  .object({
    secret: z
      .string()
      .describe('`whsec_` followed by base64 key bytes. Shown once: store it now; rotating replaces it at once.'),
    created_at: z.string(),
  })
  .meta({ id: 'WebhookSecret' });
export type WebhookSecret = z.infer<typeof WebhookSecretSchema>;

export const WebhookSecretInfoSchema = z
  .object({
    exists: z.boolean(),
    prefix: z.string().nullable().describe('The first characters of the secret, to recognise it'),
    created_at: z.string().nullable(),
  })
  .meta({ id: 'WebhookSecretInfo' });
export type WebhookSecretInfo = z.infer<typeof WebhookSecretInfoSchema>;

export const DeliveryListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(10).describe('Page size, 1 to 100'),
  offset: z.coerce.number().int().min(0).default(0).describe('Items to skip'),
  status: DeliveryStatus.optional().describe('Only deliveries in this status'),
});

export const DeliveryListSchema = z
  .object({ data: z.array(DeliverySchema), total: z.number().int(), limit: z.number().int(), offset: z.number().int() })
  .meta({ id: 'WebhookDeliveryList' });
export type DeliveryList = z.infer<typeof DeliveryListSchema>;

export interface DeliverDueResult {
  attempted: number;
  delivered: number;
  retrying: number;
  failed: number;
}
