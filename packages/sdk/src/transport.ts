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
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const fetch = options.fetch ?? globalThis.fetch;

  return async function request<T>(method: Method, path: string, init: RequestOptions = {}): Promise<T> {
    const url = `${baseUrl}${path}${init.query ? queryString(init.query) : ''}`;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    for (let attempt = 1; ; attempt++) {
      const timeout = timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined;
      const signals = [signal, timeout].filter((s): s is AbortSignal => s !== undefined);
      let response: Response;
      let text: string;
      try {
        response = await fetch(url, {
          method,
          headers,
          ...(signals.length > 0 ? { signal: signals.length === 1 ? signals[0] : AbortSignal.any(signals) } : {}),
          ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
        });
        text = await response.text();
      } catch (e) {
        // No answer, or no whole one: refused, reset, cut off, or stopped by the caller or the timeout.
        throw aborted({ signal, timeout, timeoutMs }, url) ?? new WvrConnectionError(url, e);
      }
      const data = bodyOf(text, response.headers.get('content-type'));
      if (response.ok) return data as T;
      const header = response.headers.get('retry-after');
      const body = data !== null && typeof data === 'object' ? (data as Partial<ErrorResponse>) : undefined;
      const error = new WvrApiError(response.status, body, header !== null && /^\d+$/.test(header) ? Number(header) : undefined);
      if (attempt >= attempts || !RETRIABLE.has(error.status)) throw error;
      await sleep(Math.min(maxDelayMs, (error.retryAfter ?? 2 ** attempt) * 1000), signal);
    }
  };
}

export type Request = ReturnType<typeof createTransport>;

/** A request cut short by the caller's signal (its reason) or by the timeout; undefined when neither fired. */
function aborted(abort: { signal?: AbortSignal | undefined; timeout?: AbortSignal | undefined; timeoutMs: number }, url: string): unknown {
  if (abort.signal?.aborted) return abort.signal.reason;
  if (abort.timeout?.aborted) return new WvrTimeoutError(url, abort.timeoutMs);
  return undefined;
}

/** A JSON body parsed, any other (or JSON that does not parse: a proxy's error page) as its text, none (204) as undefined. */
function bodyOf(text: string, contentType: string | null): unknown {
  if (text === '') return undefined;
  if (!/\bjson\b/i.test(contentType ?? '')) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * `?name=value&…` for the query's defined values: a list as the name repeated, an object as its JSON, anything else
 * as its string. Empty when nothing is left.
 */
function queryString(query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) params.append(name, item === null ? '' : typeof item === 'object' ? JSON.stringify(item) : String(item));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

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
