import { defineOperation } from '../accounts/operation.js';
import { DeliveryListQuery, DeliveryListSchema, WebhookSecretInfoSchema, WebhookSecretSchema } from './schemas.js';
import type { NotifyService } from './service.js';

type Services = { notify: NotifyService };
const base = { scope: 'token', tag: 'webhooks' } as const;

export const webhookOperations = {
  rotateSecret: defineOperation({
    ...base,
    id: 'rotateWebhookSecret',
    summary: 'Create or rotate your webhook signing secret',
    description:
      'Returns the new `whsec_` secret once. Every webhook delivered after this call is signed with it; see docs/webhooks.md for verification.',
    output: WebhookSecretSchema,
    run: (s: Services, principal) => s.notify.rotateSecret(principal),
  }),
  secretInfo: defineOperation({
    ...base,
    id: 'getWebhookSecret',
    summary: 'Whether a signing secret exists, and its prefix (never the secret)',
    output: WebhookSecretInfoSchema,
    run: (s: Services, principal) => s.notify.secretInfo(principal),
  }),
  deliveries: defineOperation({
    ...base,
    id: 'listWebhookDeliveries',
    summary: 'Your notification deliveries with attempts, next retry and last error',
    query: DeliveryListQuery,
    output: DeliveryListSchema,
    run: (s: Services, principal, { query }) => s.notify.listDeliveries(principal, query),
  }),
};
