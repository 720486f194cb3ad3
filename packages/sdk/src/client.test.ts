import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { createClient, paginate, WvrApiError } from './index.js';
import { startTestApi, type TestApi } from './testing.js';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

describe('sdk against a real server', () => {
  it('round-trips health, tokens and credits', async () => {
    const client = api.client;
    expect(await client.health()).toMatchObject({ status: 'ok', api_version: '1.7.0' });

    const created = await client.tokens.create({ name: 'from sdk', scopes: ['search'] });
    expect(created.token).toMatch(/^wvr_/);
    const listed = await client.tokens.list();
    expect(listed.data.map((t) => t.name)).toContain('from sdk');

    const revoked = await client.tokens.revoke(created.id);
    expect(revoked.revoked_at).not.toBeNull();

    const credits = await client.credits.get();
    expect(credits).toMatchObject({ balance: 100, plan: 'free', monthly_grant: 100 });
  });

  it('throws WvrApiError with the spec body for a revoked token', async () => {
    const client = api.client;
    const doomed = await client.tokens.create({ name: 'doomed' });
    await client.tokens.revoke(doomed.id);
    const error = await createClient({ baseUrl: api.url, token: doomed.token }).credits.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WvrApiError);
    expect(error).toMatchObject({ status: 401, error: 'authentication_error', code: 'token_revoked' });
  });

  it('surfaces validation failures with their codes and fields', async () => {
    const client = api.client;
    const error = (await client.tokens.create({ name: '' }).catch((e: unknown) => e)) as WvrApiError;
    expect(error.status).toBe(400);
    expect(error.code).toBe('name_too_short');
    expect(error.details).toMatchObject({ fields: [{ path: 'name' }] });
  });
});

describe('transport', () => {
  it('retries a 429 after Retry-After, within the attempt bound', async () => {
    const app = Fastify();
    let calls = 0;
    app.get('/v1/health', async (_req, reply) => {
      calls++;
      if (calls < 2) return reply.status(429).header('retry-after', '0').send({ error: 'rate_limit_exceeded', message: 'slow down' });
      return { status: 'ok', version: 'x', api_version: '1.7.0' };
    });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      expect(await createClient({ baseUrl: url }).health()).toMatchObject({ status: 'ok' });
      expect(calls).toBe(2);
      calls = -10;
      const error = await createClient({ baseUrl: url, retry: { attempts: 2 } }).health().catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 429, retryAfter: 0 });
      expect(calls).toBe(-8);
    } finally {
      await app.close();
    }
  });

  it('paginates a list endpoint to the end', async () => {
    const app = Fastify();
    const items = Array.from({ length: 23 }, (_, i) => ({ n: i }));
    app.get('/v1/things', async (req) => {
      const { limit = '10', offset = '0' } = req.query as Record<string, string>;
      return { data: items.slice(Number(offset), Number(offset) + Number(limit)), total: items.length, limit: Number(limit), offset: Number(offset) };
    });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const client = createClient({ baseUrl: url });
      const list = (query: { limit?: number; offset?: number }) =>
        client.request<{ data: { n: number }[]; total: number; limit: number; offset: number }>('GET', '/v1/things', { query });
      const seen: number[] = [];
      for await (const item of paginate(list, { limit: 10 })) seen.push(item.n);
      expect(seen).toEqual(items.map((i) => i.n));
    } finally {
      await app.close();
    }
  });
});
