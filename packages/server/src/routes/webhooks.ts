import { DeliveryListQuery, DeliveryListSchema, WebhookSecretInfoSchema, WebhookSecretSchema } from '@wvr/engine';
import { defineRoute } from '../route.js';

export const webhookRoutes = [
  defineRoute({
    operationId: 'rotateWebhookSecret',
    method: 'POST',
    path: '/webhooks/secret',
    auth: 'token',
    tag: 'webhooks',
    summary: 'Create or rotate your webhook signing secret',
    description:
      'Returns the new `whsec_` secret once. Every webhook delivered after this call is signed with it; see docs/webhooks.md for verification.',
    response: WebhookSecretSchema,
    successStatus: 201,
    handler: ({ engine, principal }) => engine.notify.rotateSecret(principal),
  }),
  defineRoute({
    operationId: 'getWebhookSecret',
    method: 'GET',
    path: '/webhooks/secret',
    auth: 'token',
    tag: 'webhooks',
    summary: 'Whether a signing secret exists, and its prefix (never the secret)',
    response: WebhookSecretInfoSchema,
    handler: ({ engine, principal }) => engine.notify.secretInfo(principal),
  }),
  defineRoute({
    operationId: 'listWebhookDeliveries',
    method: 'GET',
    path: '/webhooks/deliveries',
    auth: 'token',
    tag: 'webhooks',
    summary: 'Your notification deliveries with attempts, next retry and last error',
    query: DeliveryListQuery,
    response: DeliveryListSchema,
    handler: ({ engine, principal, query }) => engine.notify.listDeliveries(principal, query),
  }),
];
