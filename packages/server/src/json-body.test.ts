import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestServer, type TestServer } from './testing.js';

let t: TestServer;
let token: string;

beforeEach(async () => {
  t = await openTestServer();
  const user = await t.engine.accounts.ensureUser({ email: 'a@x.test' });
  token = (await t.engine.tokens.issue(user.id, { name: 'test', scopes: ['search', 'crawl', 'sessions'] })).token;
});
afterEach(() => t.close());

const post = (payload: string, contentType = 'application/json') =>
  t.app.inject({ method: 'POST', url: '/v1/sessions', headers: { authorization: `Bearer ${token}`, 'content-type': contentType }, payload });

describe('JSON bodies', () => {
  it('refuses a __proto__ key with 400 forbidden_key, not invalid_json, at any depth', async () => {
    for (const payload of ['{"name": "s", "__proto__": {"admin": true}}', '{"name": "s", "metadata": {"a": [{"__proto__": 1}]}}', '{"name":"s","\\u005f_proto__":{}}']) {
      const res = await post(payload);
      expect(res.statusCode, payload).toBe(400);
      expect(res.json(), payload).toMatchObject({ error: 'validation_error', code: 'forbidden_key', message: expect.stringContaining('"__proto__"') });
    }
  });

  it('refuses constructor.prototype with 400 forbidden_key', async () => {
    const res = await post('{"name": "s", "metadata": {"constructor": {"prototype": {"x": 1}}}}');
    expect([res.statusCode, res.json().code]).toEqual([400, 'forbidden_key']);
  });

  it('still answers malformed and empty JSON with invalid_json', async () => {
    const malformed = await post('{"name": "s", "__proto__": ');
    expect([malformed.statusCode, malformed.json()]).toEqual([400, { error: 'validation_error', message: 'The body is not valid JSON.', code: 'invalid_json' }]);
    const empty = await post('');
    expect([empty.statusCode, empty.json().code]).toEqual([400, 'invalid_json']);
  });

  it('parses ordinary JSON, with a charset parameter too, and keeps a plain "constructor" key', async () => {
    const res = await post('{"name": "s", "metadata": {"constructor": "Ada"}}', 'application/json; charset=utf-8');
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ name: 's', metadata: { constructor: 'Ada' } });
  });

  it('answers a text/plain body with 415 unsupported_media_type', async () => {
    const res = await post('{"name": "s"}', 'text/plain');
    expect([res.statusCode, res.json()]).toEqual([415, { error: 'validation_error', message: 'Send the body as application/json.', code: 'unsupported_media_type' }]);
  });
});
