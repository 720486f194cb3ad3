import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestServer, type TestServer } from './testing.js';
import { routes } from './routes/index.js';

let t: TestServer;
let token: string;

beforeEach(async () => {
  t = await openTestServer({ server: { bodyLimit: 4096 } });
  const user = await t.engine.accounts.ensureUser({ email: 'a@x.test' });
  token = (await t.engine.tokens.issue(user.id, { name: 'test', scopes: ['search', 'crawl'] })).token;
});
afterEach(() => t.close());

const auth = (bearer = token) => ({ authorization: `Bearer ${bearer}` });
const expectErrorShape = (body: Record<string, unknown>) => {
  expect(typeof body.error).toBe('string');
  expect(typeof body.message).toBe('string');
  expect(typeof body.code).toBe('string');
};

describe('server', () => {
  it('refuses a route schema at start: operations validate, so Fastify\'s own compilers are never loaded', async () => {
    t.app.post('/schema-route', { schema: { body: { type: 'object' } } }, async () => ({}));
    await expect(t.app.ready()).rejects.toThrow('wvr routes take no validation schema');
  });

  it('answers health without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', api_version: '1.7.0' });
  });

  it('sends X-Content-Type-Options: nosniff on every response, errors and MCP included', async () => {
    const requests: { method: 'GET' | 'POST'; url: string; headers?: Record<string, string>; payload?: object }[] = [
      { method: 'GET', url: '/v1/health' },
      { method: 'GET', url: '/v1/openapi.json' },
      { method: 'GET', url: '/v1/credits', headers: auth() },
      { method: 'GET', url: '/v1/credits' },
      { method: 'GET', url: '/v1/nowhere' },
      { method: 'POST', url: '/v1/tokens', headers: auth(), payload: { name: '' } },
      { method: 'GET', url: '/mcp' },
      {
        method: 'POST',
        url: '/mcp',
        headers: { ...auth(), accept: 'application/json, text/event-stream' },
        payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'user_me', arguments: {} } },
      },
    ];
    for (const request of requests) {
      const res = await t.app.inject(request);
      expect(res.headers['x-content-type-options'], `${request.method} ${request.url} (${res.statusCode})`).toBe('nosniff');
    }
  });

  it('answers 401 in the error shape without a token, with a malformed one and with a revoked one', async () => {
    const created = (await t.app.inject({ method: 'POST', url: '/v1/tokens', headers: auth(), payload: { name: 'doomed' } })).json();
    await t.app.inject({ method: 'DELETE', url: `/v1/tokens/${created.id}`, headers: auth() });
    const cases: [Record<string, string>, string][] = [
      [{}, 'token_missing'],
      [{ authorization: 'Bearer not-a-token' }, 'token_malformed'],
      [auth(created.token), 'token_revoked'],
    ];
    for (const [headers, code] of cases) {
      const res = await t.app.inject({ method: 'GET', url: '/v1/credits', headers });
      expect(res.statusCode).toBe(401);
      expectErrorShape(res.json());
      expect(res.json().code).toBe(code);
    }
  });

  it('answers 403 when a token asks for a scope the caller lacks', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/tokens', headers: auth(), payload: { name: 'x', scopes: ['workflow'] } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'permission_error', code: 'scope_escalation' });
  });

  it('answers 400 with field paths for an invalid body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/tokens',
      headers: auth(),
      payload: { name: '', expires_in_days: 999 },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expectErrorShape(body);
    expect(body.suggestions.length).toBeGreaterThan(0);
    expect(body.details.fields.map((f: { path: string }) => f.path).sort()).toEqual(['expires_in_days', 'name']);
  });

  it('answers 400 invalid_json, 413 payload_too_large and 404 route_not_found in the error shape', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/v1/tokens',
      headers: { ...auth(), 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect([bad.statusCode, bad.json().code]).toEqual([400, 'invalid_json']);
    const big = await t.app.inject({ method: 'POST', url: '/v1/tokens', headers: auth(), payload: { name: 'x'.repeat(10_000) } });
    expect([big.statusCode, big.json().code]).toEqual([413, 'payload_too_large']);
    const missing = await t.app.inject({ method: 'GET', url: '/v1/nowhere', headers: auth() });
    expect([missing.statusCode, missing.json().code]).toEqual([404, 'route_not_found']);
    expectErrorShape(missing.json());
  });

  it('refuses a lone UTF-16 surrogate with 400 string_invalid_unicode naming the field, rather than storing U+FFFD', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/tokens',
      headers: { ...auth(), 'content-type': 'application/json' },
      payload: '{"name": "half \\ud83d of an emoji"}',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'string_invalid_unicode', details: { fields: [{ path: 'name', code: 'string_invalid_unicode' }] } });
  });

  it('sends rate-limit headers and answers 429 with Retry-After past the free plan’s hourly limit', async () => {
    let res = await t.app.inject({ method: 'GET', url: '/v1/credits', headers: auth() });
    expect(res.headers['x-ratelimit-limit']).toBe('100');
    expect(res.headers['x-ratelimit-remaining']).toBe('99');
    for (let i = 0; i < 99; i++) await t.app.inject({ method: 'GET', url: '/v1/credits', headers: auth() });
    res = await t.app.inject({ method: 'GET', url: '/v1/credits', headers: auth() });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ error: 'rate_limit_exceeded', code: 'rate_limit_exceeded' });
    expect(Number(res.headers['retry-after'])).toBe(3600);
    expect(res.headers['x-ratelimit-remaining']).toBe('0');
    expect(res.headers['x-ratelimit-limit']).toBe('100');
    t.clock.advance(3600 * 1000);
    res = await t.app.inject({ method: 'GET', url: '/v1/credits', headers: auth() });
    expect(res.statusCode).toBe(200);
  });

  it('serves every route under /api/v1 too', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/credits', headers: auth() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ balance: 100, plan: 'free' });
  });

  it('publishes an OpenAPI 3.1 document at version 1.7.0 with every route', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.7.0');
    const expected = [...new Set(routes.map((r) => `/v1${r.path.replace(/:(\w+)/g, '{$1}')}`))].sort();
    expect(Object.keys(doc.paths).sort()).toEqual(expected);
    const ids = Object.values(doc.paths).flatMap((p) => Object.values(p as Record<string, { operationId: string }>).map((o) => o.operationId));
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    expect(doc.components.schemas.ErrorResponse).toBeDefined();
    expect(doc.paths['/v1/tokens'].post.requestBody.content['application/json'].schema.$ref).toBe(
      '#/components/schemas/TokenCreateRequest',
    );
  });

  it('publishes a request schema whose defaults differ from its response form as <id>Input', async () => {
    const { components } = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    expect(components.schemas.NotificationConfig.required).toContain('email');
    expect(components.schemas.NotificationConfigInput.required ?? []).not.toContain('email');
    expect(components.schemas.TokenCreateRequestInput).toBeUndefined();
  });
});
