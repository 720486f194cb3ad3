export { createClient, type ClientOptions, type WvrClient } from './client.js';
export { WvrApiError, WvrConnectionError, WvrTimeoutError, type ErrorResponse, type ErrorCode, type ErrorType } from './errors.js';
export { paginate, type Page } from './paginate.js';
export type { RetryOptions, CallOptions } from './transport.js';
export type { WatchOptions } from './resources/watch.js';
export type { DryRunAware } from './resources/types.js';
export { extractionSchemaOf, type ExtractionModel, type TypedExtractionPreview } from './resources/extraction.js';
export type { components, paths, operations } from './generated/openapi.js';
export { verifyWebhook, type VerifyWebhookOptions, type WebhookHeaders, type WebhookVerdict } from './webhooks.js';
