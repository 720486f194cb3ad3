export { createClient, type ClientOptions, type WvrClient } from './client.js';
export { WvrApiError, type ErrorResponse } from './errors.js';
export { paginate, type Page } from './paginate.js';
export type { RetryOptions } from './transport.js';
export type { components, paths, operations } from './generated/openapi.js';
export { verifyWebhook, type VerifyWebhookOptions, type WebhookHeaders, type WebhookVerdict } from './webhooks.js';
