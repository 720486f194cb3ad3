import type { Request } from '../transport.js';
import type { Schemas } from './types.js';

export const webhooksResource = (request: Request) => ({
  rotateSecret: () => request<Schemas['WebhookSecret']>('POST', '/v1/webhooks/secret'),
  secret: () => request<Schemas['WebhookSecretInfo']>('GET', '/v1/webhooks/secret'),
  deliveries: (query: { limit?: number; offset?: number; status?: 'pending' | 'delivered' | 'failed' } = {}) =>
    request<Schemas['WebhookDeliveryList']>('GET', '/v1/webhooks/deliveries', { query }),
});
