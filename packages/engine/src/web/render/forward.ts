import type { Dispatcher } from 'undici';
import { undici } from '../../core/undici.js';
import type { Readable } from 'node:stream';
import type { Route } from 'playwright-core';
import { SSRF_ERROR_CODE, type AddressPolicy } from '../address-policy.js';
import { readBody } from '../body.js';
import type { FetchLimits } from '../../core/fetch-limits.js';
import type { Politeness } from '../politeness.js';

/** Hop-by-hop and encoding headers that must not be replayed: the body handed back is decoded. */
const DROPPED_RESPONSE_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive']);
const DROPPED_REQUEST_HEADERS = new Set(['host', 'connection', 'content-length', 'accept-encoding']);

export interface ForwardDeps {
  policy: AddressPolicy;
  /** The plain fetcher's direct pool: its connect-time lookup is the SSRF guard (no DNS rebinding window). */
  dispatcher: Dispatcher;
  politeness: Politeness;
  limits: FetchLimits;
  userAgent: string;
}

export type ForwardOutcome = 'forwarded' | 'refused' | 'failed';

/**
 * Sends one request a rendered page makes through the plain fetcher's machinery instead of the
 * browser's network stack: the same address policy (checked on the literal host first, then on
 * the address actually connected to), the same per-origin politeness gate, the same size and
 * time caps. Redirects are handed back to the browser unfollowed, so every hop comes back here.
 */
export async function forward(route: Route, deps: ForwardDeps, signal: AbortSignal): Promise<ForwardOutcome> {
  const req = route.request();
  const url = new URL(req.url());
  const refusal = url.protocol === 'http:' || url.protocol === 'https:' ? deps.policy.refuseLiteral(url.hostname) : `${url.protocol} is not fetched`;
  if (refusal) {
    await route.abort('blockedbyclient').catch(() => undefined);
    return 'refused';
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(await req.allHeaders())) {
    if (!DROPPED_REQUEST_HEADERS.has(name.toLowerCase()) && !name.startsWith(':')) headers[name] = value;
  }
  headers['user-agent'] = deps.userAgent;
  headers['accept-encoding'] = 'gzip, deflate, br';
  const method = req.method();
  const body = method === 'GET' || method === 'HEAD' ? undefined : (req.postDataBuffer() ?? undefined);
  try {
    const answer = await deps.politeness.run(
      url.origin,
      async () => {
        const response = await undici().request(url, {
          method: method as Dispatcher.HttpMethod,
          headers,
          body,
          dispatcher: deps.dispatcher,
          signal: AbortSignal.any([signal, AbortSignal.timeout(deps.limits.totalTimeoutMs)]),
          headersTimeout: deps.limits.headersTimeoutMs,
          bodyTimeout: deps.limits.bodyTimeoutMs,
        });
        const flat: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
        const read = await readBody(response.body as unknown as Readable, flat['content-encoding'] ?? '', deps.limits);
        return { status: response.statusCode, headers: flat, read };
      },
      signal,
    );
    if ('failure' in answer.read) throw new Error(answer.read.failure.message);
    const replay = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !DROPPED_RESPONSE_HEADERS.has(name.toLowerCase())));
    await route.fulfill({ status: answer.status, headers: replay, body: answer.read.bytes });
    return 'forwarded';
  } catch (error) {
    const refused = (error as { cause?: { code?: string }; code?: string }).cause?.code === SSRF_ERROR_CODE || (error as { code?: string }).code === SSRF_ERROR_CODE;
    await route.abort(refused ? 'blockedbyclient' : 'failed').catch(() => undefined);
    return refused ? 'refused' : 'failed';
  }
}
