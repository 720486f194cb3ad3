import type { Dispatcher } from 'undici';
import { undici } from '../core/undici.js';
import type { Readable } from 'node:stream';
import { SSRF_ERROR_CODE } from './address-policy.js';
import { readBody } from './body.js';
import type { FetchLimits } from '../core/fetch-limits.js';
import type { FetchFailure } from './types.js';

export interface HopAnswer {
  status: number;
  headers: Record<string, string>;
  /** Decoded body; empty for redirects. */
  bytes: Buffer;
}

export type HopOutcome = { answer: HopAnswer } | { failure: FetchFailure; status?: number; headers?: Record<string, string> };

export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** One HTTP GET, no redirect following, every limit applied; failures come back as values. */
export async function fetchHop(
  dispatcher: Dispatcher,
  url: string,
  userAgent: string,
  limits: FetchLimits,
  signal?: AbortSignal,
): Promise<HopOutcome> {
  const overall = AbortSignal.timeout(limits.totalTimeoutMs);
  const combined = signal ? AbortSignal.any([signal, overall]) : overall;
  let status: number | undefined;
  let headers: Record<string, string> | undefined;
  try {
    const response = await undici().request(url, {
      method: 'GET',
      dispatcher,
      signal: combined,
      headersTimeout: limits.headersTimeoutMs,
      bodyTimeout: limits.bodyTimeoutMs,
      headers: {
        'user-agent': userAgent,
        accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,application/pdf;q=0.8,*/*;q=0.5',
        'accept-encoding': 'gzip, deflate, br',
      },
    });
    status = response.statusCode;
    headers = flatten(response.headers);
    if (REDIRECT_STATUSES.has(status) && headers.location) {
      await response.body.dump();
      return { answer: { status, headers, bytes: Buffer.alloc(0) } };
    }
    const declared = Number(headers['content-length']);
    if (!headers['content-encoding'] && Number.isFinite(declared) && declared > limits.maxBodyBytes) {
      await response.body.dump({ limit: 0 }).catch(() => undefined);
      return { failure: { code: 'body_too_large', message: `content-length ${declared} exceeds the ${limits.maxBodyBytes}-byte cap` }, status, headers };
    }
    const body = await readBody(response.body as unknown as Readable, headers['content-encoding'] ?? '', limits);
    if ('failure' in body) return { failure: body.failure, status, headers };
    return { answer: { status, headers, bytes: body.bytes } };
  } catch (error) {
    return { failure: failureOf(error, signal, overall), status, headers };
  }
}

function flatten(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
}

function messageOf(error: unknown): string {
  const cause = (error as { cause?: { message?: string } }).cause?.message;
  return cause ?? (error instanceof Error ? error.message : String(error));
}

function failureOf(error: unknown, caller: AbortSignal | undefined, overall: AbortSignal): FetchFailure {
  const codes = codesOf(error);
  const message = messageOf(error);
  if (caller?.aborted) return { code: 'aborted', message: 'the caller aborted the fetch' };
  if (overall.aborted) return { code: 'timeout', message: 'the whole fetch took too long' };
  if (codes.includes(SSRF_ERROR_CODE)) return { code: 'ssrf_blocked', message };
  if (codes.some((c) => c.endsWith('TIMEOUT') || c === 'ETIMEDOUT')) return { code: 'timeout', message: `${codes[0]}: ${message}` };
  if (codes.some((c) => c === 'ENOTFOUND' || c === 'EAI_AGAIN' || c === 'ENODATA')) return { code: 'dns_failed', message };
  if (codes.some((c) => c.startsWith('Z_') || c.startsWith('ERR__ERROR') || c === 'ERR_BROTLI_DECOMPRESSION_FAILED')) {
    return { code: 'http_error', message: `undecodable body: ${message}` };
  }
  return { code: 'connect_failed', message: codes[0] ? `${codes[0]}: ${message}` : message };
}
