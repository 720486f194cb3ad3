/**
 * The one error type the engine throws. Transports map it to the spec's error body
 * (error, message, code, suggestions, details) and to `status`.
 */
export type ErrorType =
  | 'validation_error'
  | 'authentication_error'
  | 'permission_error'
  | 'insufficient_credits'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'rate_limit_exceeded'
  | 'upstream_error'
  | 'internal_error'
  | 'unavailable'
  | 'storage_full';

const STATUS: Record<ErrorType, number> = {
  validation_error: 400,
  authentication_error: 401,
  insufficient_credits: 402,
  permission_error: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  rate_limit_exceeded: 429,
  internal_error: 500,
  upstream_error: 502,
  unavailable: 503,
  storage_full: 507,
};

export interface ErrorBody {
  error: ErrorType;
  message: string;
  code?: string;
  suggestions?: string[];
  details?: Record<string, unknown>;
}

export interface WvrErrorInit {
  code: string;
  suggestions?: string[];
  details?: Record<string, unknown>;
  /** Seconds the caller should wait before retrying (429, 503). */
  retryAfter?: number;
  cause?: unknown;
}

export class WvrError extends Error {
  override readonly name = 'WvrError';
  readonly type: ErrorType;
  readonly status: number;
  readonly code: string;
  readonly suggestions: string[];
  readonly details: Record<string, unknown> | undefined;
  readonly retryAfter: number | undefined;

  constructor(type: ErrorType, message: string, init: WvrErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.type = type;
    this.status = STATUS[type];
    this.code = init.code;
    this.suggestions = init.suggestions ?? [];
    this.details = init.details;
    this.retryAfter = init.retryAfter;
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { error: this.type, message: this.message, code: this.code };
    if (this.suggestions.length > 0) body.suggestions = this.suggestions;
    if (this.details !== undefined) body.details = this.details;
    return body;
  }
}

export const isWvrError = (value: unknown): value is WvrError => value instanceof WvrError;

type Init = Omit<WvrErrorInit, 'code'> & { code?: string };

export const errors = {
  validation: (code: string, message: string, init: Init = {}) =>
    new WvrError('validation_error', message, { ...init, code }),
  unauthenticated: (code: string, message: string, init: Init = {}) =>
    new WvrError('authentication_error', message, {
      suggestions: ['Send `Authorization: Bearer wvr_...` with a valid, unrevoked token.'],
      ...init,
      code,
    }),
  forbidden: (code: string, message: string, init: Init = {}) =>
    new WvrError('permission_error', message, { ...init, code }),
  notFound: (resource: string, id: string) =>
    new WvrError('not_found', `No ${resource} with id ${id}.`, {
      code: `${resource}_not_found`,
      details: { id },
    }),
  conflict: (code: string, message: string, init: Init = {}) =>
    new WvrError('conflict', message, { ...init, code }),
  insufficientCredits: (needed: number, balance: number, init: Init = {}) =>
    new WvrError('insufficient_credits', `This operation needs ${needed} credits; the balance is ${balance}.`, {
      suggestions: [...creditSuggestions(typeof init.details?.operation === 'string' ? init.details.operation : ''), 'Wait for the monthly grant or upgrade the plan.'],
      ...init,
      details: { credits_needed: needed, credits_balance: balance, ...init.details },
      code: init.code ?? 'insufficient_credits',
    }),
  rateLimited: (retryAfter: number, init: Init = {}) =>
    new WvrError('rate_limit_exceeded', `Rate limit exceeded; retry in ${retryAfter} s.`, {
      suggestions: ['Wait for the time given in Retry-After, or upgrade the plan for higher limits.'],
      ...init,
      retryAfter,
      code: init.code ?? 'rate_limit_exceeded',
    }),
  internal: (message: string, cause?: unknown) =>
    new WvrError('internal_error', message, { code: 'internal_error', cause }),
};

/** What lowers the cost of the operation a 402 refused: advice about crawl pages means nothing to a search. */
function creditSuggestions(operation: string): string[] {
  if (operation.startsWith('crawl')) {
    return [
      'Lower max_pages or drop advanced features (extraction_schema, classify_documents, intent) to reduce the cost.',
      'Use dry_run or POST /v1/crawls/estimate to see the cost before running.',
    ];
  }
  if (operation.startsWith('search')) return ['Drop rerank_results and generate_suggestions for the basic price (1 credit), or use a quick search (1 credit).'];
  if (operation === 'workflow_plan') return ['Use a smaller preset: quick 10, standard 30, thorough 50, comprehensive 100 credits.'];
  if (operation === 'workflow_execution') return ['Lower the max_pages of its crawls or max_credits_per_execution; dry_run shows the estimate.'];
  if (operation.startsWith('ask')) return ['Use a shallower depth: quick 2, standard 3, deep 5 or more credits.'];
  return ['Use dry_run where the operation offers it to see the cost before running.'];
}

