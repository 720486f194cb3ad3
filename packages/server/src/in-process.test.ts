import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inProcessFetch } from './in-process.js';
import { openTestServer, type TestServer } from './testing.js';

let t: TestServer;
let fetch: typeof globalThis.fetch;

beforeEach(async () => {
  t = await openTestServer();
  fetch = inProcessFetch(t.app);
});
afterEach(() => t.close());

describe('inProcessFetch', () => {
  it('answers with the bytes, status and headers the server wrote, however long the body', async () => {
    const direct = await t.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    const res = await fetch('http://wvr.local/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(direct.headers['content-type']);
    const body = await res.text();
    expect(body.length).toBeGreaterThan(64 * 1024);
    expect(body).toBe(direct.payload);
  });

  it('passes a request body, and an error answer comes back whole', async () => {
    const user = await t.engine.accounts.ensureUser({ email: 'a@x.test' });
    const { token } = await t.engine.tokens.issue(user.id, { name: 'test', scopes: ['search', 'crawl'] });
    const res = await fetch('http://wvr.local/v1/crawls', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ urls: [], max_pages: 5 }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: expect.any(String), code: expect.any(String) });
  });

  it('gives a HEAD request no body', async () => {
    const res = await fetch('http://wvr.local/v1/health', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.body).toBeNull();
  });
});
