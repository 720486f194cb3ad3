import { FetchError, ofetch, type $Fetch } from 'ofetch';
import { WvrApiError, WvrConnectionError, WvrTimeoutError, type ErrorResponse } from './errors.js';

export interface RetryOptions {
  /** Tries in all, including the first; default 3. */
  attempts?: number;
  /** Longest single wait, whatever Retry-After says; default 30 s. */
  maxDelayMs?: number;
}

/** Options that apply per call: set on the client, or for some calls with `client.withOptions(...)`. */
export interface CallOptions {
  /** Give up on one request after this long (WvrTimeoutError); default 60 s, 0 for none. */
  timeoutMs?: number;
  /** Cancel the call; it rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface TransportOptions extends CallOptions {
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
const DEFAULT_TIMEOUT_MS = 60_000;

/** One request function for every operation: auth, errors as WvrApiError, bounded retries, timeouts and cancelling. */
export function createTransport(options: TransportOptions, call: CallOptions = {}) {
  const attempts = Math.max(1, options.retry?.attempts ?? 3);
  const maxDelayMs = options.retry?.maxDelayMs ?? 30_000;
  const timeoutMs = call.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const signal = call.signal ?? options.signal;
  const baseURL = options.baseUrl.replace(/\/+$/, '');
  const $fetch: $Fetch = ofetch.create(
    {
      baseURL,
      retry: 0,
      headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    },
    // ofetch takes a custom fetch among its global options, not its request defaults.
    options.fetch ? { fetch: options.fetch } : {},
  );

  return async function request<T>(method: Method, path: string, init: RequestOptions = {}): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const timeout = timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined;
      const signals = [signal, timeout].filter((s): s is AbortSignal => s !== undefined);
      try {
        return await $fetch<T>(path, {
          method,
          ...(signals.length > 0 ? { signal: signals.length === 1 ? signals[0] : AbortSignal.any(signals) } : {}),
          ...(init.body === undefined ? {} : { body: init.body as Record<string, unknown> }),
          ...(init.query ? { query: withoutUndefined(init.query) } : {}),
        });
      } catch (e) {
        const error = toError(e, `${baseURL}${path}`, { signal, timeout, timeoutMs });
        if (!(error instanceof WvrApiError) || attempt >= attempts || !RETRIABLE.has(error.status)) throw error;
        await sleep(Math.min(maxDelayMs, (error.retryAfter ?? 2 ** attempt) * 1000), signal);
      }
    }
  };
}

export type Request = ReturnType<typeof createTransport>;

function toError(e: unknown, url: string, abort: { signal?: AbortSignal | undefined; timeout?: AbortSignal | undefined; timeoutMs: number }): unknown {
  if (abort.signal?.aborted) return abort.signal.reason;
  if (abort.timeout?.aborted) return new WvrTimeoutError(url, abort.timeoutMs);
  if (e instanceof FetchError && e.response) {
    const header = e.response.headers.get('retry-after');
    const retryAfter = header !== null && /^\d+$/.test(header) ? Number(header) : undefined;
    return new WvrApiError(e.response.status, e.data as Partial<ErrorResponse> | undefined, retryAfter);
  }
  // No answer at all: fetch failed before a response (refused, reset, DNS).
  if (e instanceof FetchError) return new WvrConnectionError(url, e.cause ?? e);
  return e;
}

const withoutUndefined = (query: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined));

/** Waits, or rejects with the signal's reason as soon as it aborts. */
export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
