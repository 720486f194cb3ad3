import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestServer, type TestServer } from '../testing.js';

let t: TestServer;
let alice: string;
let bob: string;
let crawlOnly: string;

beforeEach(async () => {
  t = await openTestServer();
  const a = await t.engine.accounts.ensureUser({ email: 'a@x.test' });
  const b = await t.engine.accounts.ensureUser({ email: 'b@x.test' });
  alice = (await t.engine.tokens.issue(a.id, { name: 'a', scopes: ['search'] })).token;
  crawlOnly = (await t.engine.tokens.issue(a.id, { name: 'c', scopes: ['crawl'] })).token;
  bob = (await t.engine.tokens.issue(b.id, { name: 'b', scopes: ['search'] })).token;
  await t.engine.search.index.upsert({ url: 'http://pub.test/owls', title: 'Owls of the north', text: 'Snowy owls hunt by day.', ownerUserId: null, fetchedAt: 0 });
  await t.engine.search.index.upsert({ url: 'http://priv.test/owls', title: 'Private owl census', text: 'Our owl counts.', ownerUserId: a.id, crawlId: 'c1', fetchedAt: 0 });
});
afterEach(() => t.close());

const post = (url: string, token: string, payload: unknown) => t.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}` }, payload: payload as object });
const get = (url: string, token: string) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

describe('search routes', () => {
  it('answers a quick search with results and the credits charged', async () => {
    const res = await post('/v1/search/quick', alice, { query: 'owl' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.results.map((r: { url: string }) => r.url).sort()).toEqual(['http://priv.test/owls', 'http://pub.test/owls']);
    expect(body.credits).toEqual({ consumed: 1, balance_after: 99, pricing_tier: 'basic', advanced_features: [] });
    const other = await post('/v1/search/quick', bob, { query: 'owl' });
    expect(other.json().results.map((r: { url: string }) => r.url)).toEqual(['http://pub.test/owls']);
  });

  it('needs the search scope, and a valid body', async () => {
    expect((await post('/v1/search/quick', crawlOnly, { query: 'owl' })).statusCode).toBe(403);
    const bad = await post('/v1/search', alice, { query: 'owl', max_results: 0 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'validation_error' });
  });

  it('serves /v1/search and /v1/searches as one operation, dry run included', async () => {
    const dry = await post('/v1/searches', alice, { query: 'owl', rerank_results: true, dry_run: true });
    expect(dry.json()).toMatchObject({ dry_run: true, credits: { would_consume: 2, pricing_tier: 'advanced' } });
    const sync = await post('/v1/search', alice, { query: 'owl', processing_mode: 'sync' });
    expect(sync.json()).toMatchObject({ status: 'completed', total_results: 2, credits: { consumed: 1 } });
    const viaAlias = await post('/v1/searches', alice, { query: 'owl', processing_mode: 'sync' });
    expect(viaAlias.json()).toMatchObject({ status: 'completed', total_results: 2 });
  });

  it('lists, reads, shares and deletes jobs; others get 404', async () => {
    const { id } = (await post('/v1/search', alice, { query: 'owl' })).json() as { id: string };
    await t.engine.jobs.drain();
    expect((await get(`/v1/search/jobs/${id}`, alice)).json()).toMatchObject({ id, status: 'completed', public_share: false });
    expect((await get('/v1/search/jobs?status=completed', alice)).json()).toMatchObject({ total: 1, limit: 10, offset: 0 });
    expect((await get(`/v1/search/jobs/${id}`, bob)).statusCode).toBe(404);
    expect((await get('/v1/search/jobs/not-a-uuid', alice)).statusCode).toBe(404);
    expect((await post(`/v1/search/jobs/${id}/share`, alice, { public_share: true })).json()).toEqual({ id, public_share: true });
    expect((await get(`/v1/search/jobs/${id}`, bob)).json()).toMatchObject({ id, public_share: true });
    const del = await t.app.inject({ method: 'DELETE', url: `/v1/search/jobs/${id}`, headers: { authorization: `Bearer ${alice}` } });
    expect(del.statusCode).toBe(200);
    expect((await get(`/v1/search/jobs/${id}`, alice)).statusCode).toBe(404);
  });

  it('describes providers and the caller’s statistics', async () => {
    const body = (await get('/v1/search', alice)).json();
    expect(body.providers.map((p: { name: string }) => p.name)).toEqual(['local']);
    expect(body.statistics).toMatchObject({ searches_total: 0, indexed_pages_own: 1, indexed_pages_public: 1 });
  });
});
