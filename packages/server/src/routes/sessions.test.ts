import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestServer, type TestServer } from '../testing.js';

let t: TestServer;
let ownerToken: string;
let colleagueToken: string;
let outsiderToken: string;
let orgId: string;

beforeEach(async () => {
  t = await openTestServer();
  const owner = await t.engine.accounts.ensureUser({ email: 'owner@x.test' });
  const colleague = await t.engine.accounts.ensureUser({ email: 'colleague@x.test' });
  const outsider = await t.engine.accounts.ensureUser({ email: 'outsider@x.test' });
  orgId = (await t.engine.accounts.createOrganization({ name: 'Acme', ownerUserId: owner.id })).id;
  await t.engine.accounts.addMember(orgId, colleague.id);
  ownerToken = (await t.engine.tokens.issue(owner.id, { name: 't', scopes: ['sessions', 'search'] })).token;
  colleagueToken = (await t.engine.tokens.issue(colleague.id, { name: 't', scopes: ['sessions'] })).token;
  outsiderToken = (await t.engine.tokens.issue(outsider.id, { name: 't', scopes: ['sessions'] })).token;
});
afterEach(() => t.close());

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token?: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: token ? { authorization: `Bearer ${token}` } : {}, ...(payload === undefined ? {} : { payload: payload as object }) });

const createSession = async (body: Record<string, unknown> = {}) => {
  const res = await call('POST', '/v1/sessions', ownerToken, { name: 'GPU research', ...body });
  expect(res.statusCode).toBe(201);
  return res.json() as { id: string };
};

describe('session routes', () => {
  it('creates, reads, patches, lists and deletes a session over HTTP', async () => {
    const { id } = await createSession({ metadata: { tags: ['gpu'] } });
    const detail = await call('GET', `/v1/sessions/${id}`, ownerToken);
    expect(detail.json()).toMatchObject({ id, status: 'active', access_level: 'owner', operations: [], user_organizations: [{ id: orgId, name: 'Acme' }] });
    const patched = await call('PATCH', `/v1/sessions/${id}`, ownerToken, { config: { max_operations: 3 } });
    expect(patched.json().session_config.max_operations).toBe(3);
    const list = await call('GET', '/v1/sessions?tag=gpu&limit=5', ownerToken);
    expect(list.json()).toMatchObject({ total: 1, limit: 5, offset: 0 });
    expect((await call('DELETE', `/v1/sessions/${id}`, ownerToken)).statusCode).toBe(200);
    expect((await call('GET', `/v1/sessions/${id}`, ownerToken)).json()).toMatchObject({ error: 'not_found', code: 'session_not_found' });
  });

  it('answers 400 in the error shape for a bad body or query, and 403 without the sessions scope', async () => {
    const bad = await call('POST', '/v1/sessions', ownerToken, { name: 'x', session_config: { max_operations: 0 } });
    expect([bad.statusCode, bad.json().code]).toEqual([400, 'max_operations_out_of_range']);
    const badQuery = await call('GET', '/v1/sessions?days_back=0', ownerToken);
    expect([badQuery.statusCode, badQuery.json().code]).toEqual([400, 'days_back_out_of_range']);
    const searchOnly = (await t.engine.tokens.issue((await t.engine.accounts.getUserByEmail('owner@x.test'))!.id, { name: 's', scopes: ['search'] })).token;
    expect((await call('GET', '/v1/sessions', searchOnly)).statusCode).toBe(403);
    expect((await call('GET', '/v1/sessions')).statusCode).toBe(401);
  });

  it('refuses a lone surrogate in a session name, escaped or sent as bytes, instead of storing U+FFFD', async () => {
    const headers = { authorization: `Bearer ${ownerToken}`, 'content-type': 'application/json' };
    const loneHigh = Buffer.from([0xed, 0xa0, 0x80]); // U+D800 encoded as if it were a character
    const bodies = [
      '{"name":"GPU \\ud800 research"}',
      Buffer.concat([Buffer.from('{"name":"GPU '), loneHigh, Buffer.from(' research"}')]),
    ];
    for (const payload of bodies) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/sessions', headers, payload });
      expect([res.statusCode, res.json().code]).toEqual([400, 'string_invalid_unicode']);
    }
    const { id } = await createSession();
    const patched = await t.app.inject({ method: 'PATCH', url: `/v1/sessions/${id}`, headers, payload: Buffer.concat([Buffer.from('{"name":"x'), loneHigh, Buffer.from('"}')]) });
    expect([patched.statusCode, patched.json().code]).toEqual([400, 'string_invalid_unicode']);
    const list = await call('GET', '/v1/sessions', ownerToken);
    expect(list.body).not.toContain('\ufffd');
  });

  it('walks active -> completed -> archived and answers 409 with a code for illegal transitions', async () => {
    const { id } = await createSession();
    expect((await call('POST', `/v1/sessions/${id}/archive`, ownerToken)).json()).toMatchObject({ error: 'conflict', code: 'session_not_completed' });
    expect((await call('POST', `/v1/sessions/${id}/complete`, ownerToken)).json().status).toBe('completed');
    const search = await call('POST', `/v1/sessions/${id}/search`, ownerToken, { query: 'gpu' });
    expect([search.statusCode, search.json().code]).toEqual([409, 'session_completed']);
    expect((await call('POST', `/v1/sessions/${id}/archive`, ownerToken)).json().status).toBe('archived');
    expect((await call('POST', `/v1/sessions/${id}/complete`, ownerToken)).statusCode).toBe(409);
  });

  it('shows org_viewer to an org member after org sharing and 404 to an outsider', async () => {
    const { id } = await createSession();
    const share = await call('POST', `/v1/sessions/${id}/share`, ownerToken, { shared_with_org: true, organization_id: orgId });
    expect(share.json()).toEqual({ id, public_share: false, shared_with_org: true, organization_id: orgId });
    expect((await call('GET', `/v1/sessions/${id}`, colleagueToken)).json().access_level).toBe('org_viewer');
    expect((await call('GET', `/v1/sessions/${id}/timeline`, colleagueToken)).statusCode).toBe(200);
    expect((await call('GET', `/v1/sessions/${id}`, outsiderToken)).statusCode).toBe(404);
    const shared = await call('GET', '/v1/sessions?include_shared=true', colleagueToken);
    expect(shared.json().shared_sessions.map((s: { id: string }) => s.id)).toEqual([id]);
  });

  it('serves public sessions without a token, only when publicly shared, without private fields', async () => {
    const { id } = await createSession();
    const op = await t.engine.sessions.beginOperation(t.engine.accounts.localPrincipal((await t.engine.accounts.getUserByEmail('owner@x.test'))!), id, 'search', { query: 'gpu' });
    await t.engine.sessions.finishOperation(op.operationId, { status: 'completed', documents: [{ url: 'https://a.test/1' }], credits: 1 });
    expect((await call('GET', `/v1/public/sessions/${id}`)).statusCode).toBe(404);
    await call('POST', `/v1/sessions/${id}/share`, ownerToken, { public_share: true });
    const shown = await call('GET', `/v1/public/sessions/${id}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toMatchObject({ id, access_level: 'public', operations: [{ query: 'gpu', credits: 1 }] });
    const timeline = await call('GET', `/v1/public/sessions/${id}/timeline`);
    expect(timeline.json().total).toBe(1);
    for (const text of [shown.body, timeline.body]) {
      expect(text).not.toMatch(/owner@x\.test|user_id|organization|session_config|resource_id|token/);
    }
  });

  it('runs a search inside a session over HTTP, filtering the URLs an earlier search returned', async () => {
    for (const n of [1, 2, 3]) {
      await t.engine.search.index.upsert({ url: `http://teapots.test/${n}`, title: `Teapot ${n}`, text: `Teapot number ${n} pours well.`, ownerUserId: null, fetchedAt: t.clock.now() });
    }
    const { id } = await createSession();
    const first = await call('POST', `/v1/sessions/${id}/search`, ownerToken, { query: 'teapot', max_results: 2, processing_mode: 'sync' });
    expect(first.statusCode).toBe(200);
    const firstUrls = (first.json().results as { url: string }[]).map((r) => r.url);
    const second = await call('POST', `/v1/sessions/${id}/search`, ownerToken, { query: 'teapot', processing_mode: 'sync', filter_seen_urls: true });
    const secondUrls = (second.json().results as { url: string }[]).map((r) => r.url);
    expect(secondUrls).toHaveLength(1);
    expect(firstUrls).not.toContain(secondUrls[0]);
    const timeline = (await call('GET', `/v1/sessions/${id}/timeline`, ownerToken)).json();
    expect(timeline.data.map((o: { result_count: number }) => o.result_count)).toEqual([2, 1]);
  });

  it('treats POST /v1/search with a session_id as the session\'s search: 404 for a stranger, nothing charged; on the owner\'s timeline', async () => {
    const { id } = await createSession();
    const outsider = await t.engine.accounts.ensureUser({ email: 'outsider@x.test' });
    const strangerToken = (await t.engine.tokens.issue(outsider.id, { name: 's', scopes: ['search'] })).token;
    const before = await t.engine.credits.balance(outsider.id);
    const refused = await call('POST', '/v1/search', strangerToken, { query: 'gpu', processing_mode: 'sync', session_id: id });
    expect([refused.statusCode, refused.json().code]).toEqual([404, 'session_not_found']);
    expect(await t.engine.credits.balance(outsider.id)).toBe(before);
    const own = await call('POST', '/v1/search', ownerToken, { query: 'gpu', processing_mode: 'sync', session_id: id });
    expect(own.statusCode).toBeLessThan(300);
    const timeline = (await call('GET', `/v1/sessions/${id}/timeline`, ownerToken)).json();
    expect(timeline.data.map((o: { kind: string; resource_id: string }) => [o.kind, o.resource_id])).toEqual([['search', own.json().id]]);
  });
});
