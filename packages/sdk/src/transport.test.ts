import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createClient, WvrApiError, WvrConnectionError, WvrTimeoutError } from './index.js';
import { serveLoopback, type LoopbackSite } from './testing.js';

let silent: LoopbackSite;
let closedPort: number;

beforeAll(async () => {
  // Accepts requests and never answers them.
  silent = await serveLoopback(() => undefined);
  // A port nothing listens on: bind, note, close.
  const probe: Server = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});
afterAll(() => silent.close());

describe('transport failures', () => {
  it('throws WvrConnectionError, not a fetch library’s error, when nothing listens', async () => {
    const error = await createClient({ baseUrl: `http://127.0.0.1:${closedPort}` }).health().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WvrConnectionError);
    expect(error).not.toBeInstanceOf(WvrApiError);
    expect((error as WvrConnectionError).url).toBe(`http://127.0.0.1:${closedPort}/v1/health`);
  });

  it('times out per client and per call with WvrTimeoutError', async () => {
    const client = createClient({ baseUrl: silent.origin, timeoutMs: 200 });
    const started = Date.now();
    const error = await client.health().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WvrTimeoutError);
    expect((error as WvrTimeoutError).timeoutMs).toBe(200);
    expect(Date.now() - started).toBeLessThan(5_000);

    const perCall = await createClient({ baseUrl: silent.origin }).withOptions({ timeoutMs: 150 }).credits.get().catch((e: unknown) => e);
    expect(perCall).toMatchObject({ name: 'WvrTimeoutError', timeoutMs: 150 });
  });

  it('cancels with an AbortSignal, rejecting with the signal’s reason', async () => {
    const controller = new AbortController();
    const pending = createClient({ baseUrl: silent.origin }).withOptions({ signal: controller.signal }).health();
    const reason = new Error('user gave up');
    setTimeout(() => controller.abort(reason), 50);
    await expect(pending).rejects.toBe(reason);
  });
});

describe('requests and answers on the wire', () => {
  let site: LoopbackSite;
  const seen: { method: string; url: string; headers: Record<string, string | string[] | undefined>; body: string }[] = [];
  beforeAll(async () => {
    site = await serveLoopback((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
        if (req.url!.startsWith('/proxy')) {
          res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>Bad gateway</body></html>');
        } else if (req.url!.startsWith('/broken')) {
          res.writeHead(500, { 'content-type': 'application/json' }).end('{"error": ');
        } else if (req.url!.startsWith('/empty')) {
          res.writeHead(204).end();
        } else {
          res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ ok: true }));
        }
      });
    });
  });
  afterAll(() => site.close());

  it('sends the token, a JSON body, and the query’s defined values (lists as repeated names)', async () => {
    const client = createClient({ baseUrl: `${site.origin}/`, token: 'wvr_t' });
    const answer = await client.request('POST', '/v1/things', { body: { name: 'a & b' }, query: { limit: 5, full: false, skip: undefined, tag: ['x', 'y z'], q: 'a&b=c' } });
    expect(answer).toEqual({ ok: true });
    const sent = seen.at(-1)!;
    expect(sent.method).toBe('POST');
    expect(sent.url).toBe('/v1/things?limit=5&full=false&tag=x&tag=y+z&q=a%26b%3Dc');
    expect(sent.headers.authorization).toBe('Bearer wvr_t');
    expect(sent.headers['content-type']).toBe('application/json');
    expect(JSON.parse(sent.body)).toEqual({ name: 'a & b' });
  });

  it('gives no body as undefined, and an error page that is not the API’s as WvrApiError http_error', async () => {
    const client = createClient({ baseUrl: site.origin, retry: { attempts: 1 } });
    expect(await client.request('DELETE', '/empty')).toBeUndefined();
    for (const path of ['/proxy', '/broken']) {
      const error = await client.request('GET', path).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WvrApiError);
      expect(error).toMatchObject({ status: path === '/proxy' ? 502 : 500, error: 'http_error', suggestions: [] });
    }
  });
});
