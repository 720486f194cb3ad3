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
