import type { components } from './generated/openapi.js';

type Schemas = components['schemas'];
export type ErrorResponse = Schemas['ErrorResponse'];
/** The error types of the API (`error`). */
export type ErrorType = Schemas['ErrorType'];
/**
 * Every code the API documents (docs/errors.md), read from the OpenAPI document: the named codes,
 * and the field codes `<field>_<rule>` (e.g. `query_too_long`, `crawl_not_found`).
 */
export type ErrorCode = Schemas['ErrorCode'] | `${string}_${Schemas['FieldErrorRule']}`;

/** A non-2xx answer from the API, carrying the spec's error body. */
export class WvrApiError extends Error {
  override readonly name = 'WvrApiError';
  readonly status: number;
  /** The error type; `http_error` when the answer had no error body (a proxy's page, say). */
  readonly error: ErrorType | 'http_error';
  readonly code: ErrorCode | undefined;
  readonly suggestions: string[];
  readonly details: Record<string, unknown> | undefined;
  /** Seconds, from Retry-After on 429 and 503. */
  readonly retryAfter: number | undefined;

  constructor(status: number, body: Partial<ErrorResponse> | undefined, retryAfter: number | undefined) {
    super(body?.message ?? `HTTP ${status}`);
    this.status = status;
    this.error = body?.error ?? 'http_error';
    this.code = body?.code as ErrorCode | undefined;
    this.suggestions = body?.suggestions ?? [];
    this.details = body?.details;
    this.retryAfter = retryAfter;
  }
}

/** The server could not be reached: refused, reset, DNS, TLS. Nothing was answered, so nothing was charged by this call. */
export class WvrConnectionError extends Error {
  override readonly name = 'WvrConnectionError';
  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    super(`Could not reach the wvr API at ${url}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** No answer within the timeout (`timeoutMs` of the client or of the call). The server may still finish the work. */
export class WvrTimeoutError extends Error {
  override readonly name = 'WvrTimeoutError';
  constructor(
    readonly url: string,
    readonly timeoutMs: number,
  ) {
    super(`The wvr API at ${url} did not answer within ${timeoutMs} ms`);
  }
}
