import type { Request } from '../transport.js';
import { operationCaller, type Query } from './types.js';

export const webhooksResource = (request: Request) => {
  const call = operationCaller(request);
  return {
    rotateSecret: () => call('rotateWebhookSecret'),
    secret: () => call('getWebhookSecret'),
    deliveries: (query: Query<'listWebhookDeliveries'> = {}) => call('listWebhookDeliveries', { query }),
  };
};
