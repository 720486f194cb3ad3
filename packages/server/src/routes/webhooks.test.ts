import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestServer, type TestServer } from '../testing.js';

let t: TestServer;
let token: string;

beforeEach(async () => {
  t = await openTestServer();
  const user = await t.engine.accounts.ensureUser({ email: 'a@x.test' });
  token = (await t.engine.tokens.issue(user.id, { name: 'test', scopes: ['workflow'] })).token;
});
afterEach(() => t.close());

const auth = () => ({ authorization: `Bearer ${token}` });

describe('webhook routes', () => {
  it('shows a new secret once on rotation and only its prefix afterwards', async () => {
    const before = await t.app.inject({ method: 'GET', url: '/v1/webhooks/secret', headers: auth() });
    expect(before.json()).toEqual({ exists: false, prefix: null, created_at: null });

    const created = await t.app.inject({ method: 'POST', url: '/v1/webhooks/secret', headers: auth() });
    expect(created.statusCode).toBe(201);
    const { secret } = created.json() as { secret: string };
    expect(secret).toMatch(/^whsec_/);

    const after = await t.app.inject({ method: 'GET', url: '/v1/webhooks/secret', headers: auth() });
    expect(after.json()).toEqual({ exists: true, prefix: secret.slice(0, 10), created_at: '2026-03-10T12:00:00.000Z' });
    expect(after.body).not.toContain(secret);
  });

  it('lists deliveries as a page and answers 400 for a bad status filter', async () => {
    const ok = await t.app.inject({ method: 'GET', url: '/v1/webhooks/deliveries?limit=5', headers: auth() });
    expect(ok.json()).toEqual({ data: [], total: 0, limit: 5, offset: 0 });
    const bad = await t.app.inject({ method: 'GET', url: '/v1/webhooks/deliveries?status=lost', headers: auth() });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'validation_error', code: 'status_invalid' });
  });
});
