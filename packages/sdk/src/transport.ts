import { FetchError, ofetch, type $Fetch } from 'ofetch';
import { WvrApiError, type ErrorResponse } from './errors.js';

export interface RetryOptions {
  /** Tries in all, including the first; default 3. */
  attempts?: number;
  /** Longest single wait, whatever Retry-After says; default 30 s. */
  maxDelayMs?: number;
}

export interface TransportOptions {
  baseUrl: string;
  token?: string;
  fetch?: typeof globalThis.fetch;
  retry?: RetryOptions;
}

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, unknown>;
}

const RETRIABLE = new Set([429, 503]);

/** One request function for every operation: auth, errors as WvrApiError, bounded retries. */
export function createTransport(options: TransportOptions) {
  const attempts = Math.max(1, options.retry?.attempts ?? 3);
  const maxDelayMs = options.retry?.maxDelayMs ?? 30_000;
  const $fetch: $Fetch = ofetch.create(
    {
      baseURL: options.baseUrl.replace(/\/+$/, ''),
      retry: 0,
      headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    },
    // ofetch takes a custom fetch among its global options, not its request defaults.
    options.fetch ? { fetch: options.fetch } : {},
  );

  return async function request<T>(method: Method, path: string, init: RequestOptions = {}): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await $fetch<T>(path, {
          method,
          ...(init.body === undefined ? {} : { body: init.body as Record<string, unknown> }),
          ...(init.query ? { query: withoutUndefined(init.query) } : {}),
        });
      } catch (e) {
        const error = toApiError(e);
        if (attempt >= attempts || !RETRIABLE.has(error.status)) throw error;
        await sleep(Math.min(maxDelayMs, (error.retryAfter ?? 2 ** attempt) * 1000));
      }
    }
  };
}

export type Request = ReturnType<typeof createTransport>;

function toApiError(e: unknown): WvrApiError {
  if (e instanceof FetchError && e.response) {
    const header = e.response.headers.get('retry-after');
    const retryAfter = header !== null && /^\d+$/.test(header) ? Number(header) : undefined;
    return new WvrApiError(e.response.status, e.data as Partial<ErrorResponse> | undefined, retryAfter);
  }
  throw e;
}

const withoutUndefined = (query: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
