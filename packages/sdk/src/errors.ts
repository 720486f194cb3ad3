import type { components } from './generated/openapi.js';

export type ErrorResponse = components['schemas']['ErrorResponse'];

/** A non-2xx answer from the API, carrying the spec's error body. */
export class WvrApiError extends Error {
  override readonly name = 'WvrApiError';
  readonly status: number;
  readonly error: string;
  readonly code: string | undefined;
  readonly suggestions: string[];
  readonly details: Record<string, unknown> | undefined;
  /** Seconds, from Retry-After on 429 and 503. */
  readonly retryAfter: number | undefined;

  constructor(status: number, body: Partial<ErrorResponse> | undefined, retryAfter: number | undefined) {
    super(body?.message ?? `HTTP ${status}`);
    this.status = status;
    this.error = body?.error ?? 'http_error';
    this.code = body?.code;
    this.suggestions = body?.suggestions ?? [];
    this.details = body?.details;
    this.retryAfter = retryAfter;
  }
}
