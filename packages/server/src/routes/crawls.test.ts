import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startLocalWeb, type LocalWeb } from '@wvr/testkit';
import { openTestServer, type TestServer } from '../testing.js';

let web: LocalWeb;
let t: TestServer;
let token: string;

beforeAll(async () => {
  web = await startLocalWeb({ sizes: { products: 100, articles: 10, docsDepth: 2 } });
});
afterAll(async () => web.close());
beforeEach(async () => {
  t = await openTestServer({ engine: { allowPrivateNetwork: true } });
  const user = await t.engine.accounts.ensureUser({ email: 'a@x.test' });
  await t.engine.credits.grant(user.id, 500);
  token = (await t.engine.tokens.issue(user.id, { name: 'test', scopes: ['crawl'] })).token;
});
afterEach(() => t.close());

const auth = () => ({ authorization: `Bearer ${token}` });

describe('crawl routes', () => {
  it('answers a dry run with 200 (nothing created) and shows the expansion follow_links turns on', async () => {
    const dry = await t.app.inject({ method: 'POST', url: '/v1/crawls', headers: auth(), payload: { urls: [`${web.news}/`], max_pages: 3, follow_links: true, dry_run: true } });
    expect(dry.statusCode).toBe(200);
    expect(dry.json()).toMatchObject({ dry_run: true, configuration: { expansion: 'internal', follow_links: true } });
    const created = await t.app.inject({ method: 'POST', url: '/v1/crawls', headers: auth(), payload: { urls: [`${web.news}/`], max_pages: 3, follow_links: true } });
    expect(created.statusCode).toBe(201);
    expect(created.json().configuration).toMatchObject({ expansion: 'internal', follow_links: true });
  });

  it('crawls synchronously, then reads, lists and publicly shares the crawl', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/v1/crawls', headers: auth(), payload: { urls: [`${web.news}/`], max_pages: 3, expansion: 'internal', processing_mode: 'sync' } });
    expect(created.statusCode).toBe(201);
    const crawl = created.json();
    expect(crawl).toMatchObject({ status: 'completed', access_level: 'owner', stats: { pages_crawled: 3 } });
    expect(crawl.documents[0]).toHaveProperty('importance_score');

    const got = await t.app.inject({ method: 'GET', url: `/v1/crawls/${crawl.id}`, headers: auth() });
    expect(got.json().documents).toHaveLength(3);
    const list = await t.app.inject({ method: 'GET', url: '/v1/crawls?status=completed&limit=5', headers: auth() });
    expect(list.json()).toMatchObject({ total: 1, limit: 5, offset: 0 });

    expect((await t.app.inject({ method: 'GET', url: `/v1/public/crawls/${crawl.id}` })).statusCode).toBe(404);
    const shared = await t.app.inject({ method: 'POST', url: `/v1/crawls/${crawl.id}/share`, headers: auth(), payload: { public_share: true } });
    expect(shared.json().sharing.public_share).toBe(true);
    const pub = await t.app.inject({ method: 'GET', url: `/v1/public/crawls/${crawl.id}` });
    expect(pub.statusCode).toBe(200);
    expect(pub.json().access_level).toBe('public');
  });

  it('answers async at once with the pending job and cancels it with the credits released', async () => {
    const before = await t.engine.credits.balance((await t.engine.accounts.getUserByEmail('a@x.test'))!.id);
    const created = await t.app.inject({ method: 'POST', url: '/v1/crawls', headers: auth(), payload: { urls: [`${web.catalogue}/`], max_pages: 40, expansion: 'internal' } });
    expect(created.json().status).toBe('pending');
    const cancelled = await t.app.inject({ method: 'DELETE', url: `/v1/crawls/${created.json().id}`, headers: auth() });
    expect(cancelled.json().status).toBe('cancelled');
    expect(await t.engine.credits.balance((await t.engine.accounts.getUserByEmail('a@x.test'))!.id)).toBe(before);
    const again = await t.app.inject({ method: 'POST', url: `/v1/crawls/${created.json().id}/abort`, headers: auth() });
    expect(again.statusCode).toBe(409);
  });

  it('estimates, and answers 400 in the error shape for bad bodies', async () => {
    const estimate = await t.app.inject({ method: 'POST', url: '/v1/crawls/estimate', headers: auth(), payload: { urls: [`${web.catalogue}/`], max_pages: 30, expansion: 'internal', classify_documents: true } });
    expect(estimate.json()).toMatchObject({ cost_estimate: 60, would_succeed: true, credits_balance: expect.any(Number) });
    const sync = await t.app.inject({ method: 'POST', url: '/v1/crawls', headers: auth(), payload: { urls: [`${web.catalogue}/`], max_pages: 11, processing_mode: 'sync' } });
    expect(sync.statusCode).toBe(400);
    expect(sync.json()).toMatchObject({ error: 'validation_error', code: 'sync_max_pages_exceeded' });
    const noUrls = await t.app.inject({ method: 'POST', url: '/v1/crawls', headers: auth(), payload: { urls: [] } });
    expect(noUrls.statusCode).toBe(400);
    const missing = await t.app.inject({ method: 'GET', url: '/v1/crawls/00000000-0000-4000-8000-000000000000', headers: auth() });
    expect(missing.statusCode).toBe(404);
  });

  it('refuses private webhook_urls unless the private network is allowed, and never echoes credentials', async () => {
    const strict = await openTestServer();
    try {
      const owner = await strict.engine.accounts.ensureUser({ email: 'a@x.test' });
      const bearer = { authorization: `Bearer ${(await strict.engine.tokens.issue(owner.id, { name: 't', scopes: ['crawl'] })).token}` };
      for (const hook of ['http://127.0.0.1:9/hook', 'http://[::1]/hook', 'http://169.254.169.254/latest', 'http://10.0.0.7/', 'http://localhost/hook']) {
        const res = await strict.app.inject({ method: 'POST', url: '/v1/crawls', headers: bearer, payload: { urls: ['https://example.com/'], webhook_url: hook } });
        expect([res.statusCode, res.json().code, res.json().details.fields[0].path], hook).toEqual([400, 'webhook_url_not_allowed', 'webhook_url']);
      }
      const secret = await strict.app.inject({ method: 'POST', url: '/v1/crawls', headers: bearer, payload: { urls: ['https://ada:hunter2@example.com/'] } });
      expect([secret.statusCode, secret.json().code]).toEqual([400, 'url_credentials_not_allowed']);
      expect(secret.body).not.toContain('hunter2');
    } finally {
      await strict.close();
    }
    // This server allows the private network (the local web lives on it): the same webhook is accepted.
    const allowed = await t.app.inject({ method: 'POST', url: '/v1/crawls', headers: auth(), payload: { urls: [`${web.news}/`], webhook_url: 'http://127.0.0.1:9/hook' } });
    expect(allowed.statusCode).toBe(201);
  });

  it('reads a crawl with all, the top or none of its documents, its progress, and pages through them', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/v1/crawls', headers: auth(), payload: { urls: [`${web.news}/`], max_pages: 6, expansion: 'internal', processing_mode: 'sync' } });
    const id = created.json().id;
    const all = (await t.app.inject({ method: 'GET', url: `/v1/crawls/${id}`, headers: auth() })).json();
    expect(all.documents).toHaveLength(6);
    expect(all.documents_total).toBe(6);

    const none = (await t.app.inject({ method: 'GET', url: `/v1/crawls/${id}?documents=none`, headers: auth() })).json();
    expect(none).toMatchObject({ documents: [], documents_total: 6, stats: { pages_crawled: 6, pages_queued: 0 } });
    const top = (await t.app.inject({ method: 'GET', url: `/v1/crawls/${id}?documents=top&documents_limit=2`, headers: auth() })).json();
    const byImportance = [...all.documents].sort((a, b) => b.importance_score - a.importance_score);
    expect(top.documents.map((d: { importance_score: number }) => d.importance_score)).toEqual(byImportance.slice(0, 2).map((d) => d.importance_score));

    const progress = await t.app.inject({ method: 'GET', url: `/v1/crawls/${id}/progress?best_pages=2`, headers: auth() });
    expect(progress.statusCode).toBe(200);
    expect(progress.json()).toMatchObject({ id, status: 'completed', documents_total: 6, stats: { pages_crawled: 6, pages_queued: 0 }, error: null });
    expect(progress.json().best_pages).toEqual(
      top.documents.map((d: Record<string, unknown>) => ({ url: d.url, final_url: d.final_url, title: d.title, status_code: d.status_code, depth: d.depth, importance_score: d.importance_score })),
    );
    expect(Object.keys(progress.json())).not.toContain('configuration');
    const quiet = (await t.app.inject({ method: 'GET', url: `/v1/crawls/${id}/progress?best_pages=0`, headers: auth() })).json();
    expect([quiet.best_pages, quiet.documents_total]).toEqual([[], 6]);
    expect((await t.app.inject({ method: 'GET', url: `/v1/crawls/${id}/progress`, headers: auth() })).json().best_pages).toHaveLength(5);
    // Another user reads no more of it than of the crawl itself.
    const stranger = await t.engine.accounts.ensureUser({ email: 'b@x.test' });
    const theirs = { authorization: `Bearer ${(await t.engine.tokens.issue(stranger.id, { name: 'test', scopes: ['crawl'] })).token}` };
    const denied = await t.app.inject({ method: 'GET', url: `/v1/crawls/${id}/progress`, headers: theirs });
    expect(denied.statusCode).toBe((await t.app.inject({ method: 'GET', url: `/v1/crawls/${id}`, headers: theirs })).statusCode);
    expect([403, 404]).toContain(denied.statusCode);

    const first = (await t.app.inject({ method: 'GET', url: `/v1/crawls/${id}/documents?limit=4`, headers: auth() })).json();
    const second = (await t.app.inject({ method: 'GET', url: `/v1/crawls/${id}/documents?limit=4&offset=4`, headers: auth() })).json();
    expect(first).toMatchObject({ total: 6, limit: 4, offset: 0 });
    expect([...first.data, ...second.data].map((d: { url: string }) => d.url)).toEqual(all.documents.map((d: { url: string }) => d.url));
    const ranked = (await t.app.inject({ method: 'GET', url: `/v1/crawls/${id}/documents?order=importance&limit=100`, headers: auth() })).json();
    expect(ranked.data.map((d: { importance_score: number }) => d.importance_score)).toEqual(byImportance.map((d) => d.importance_score));

    const bads = [`/v1/crawls/${id}?documents=some`, `/v1/crawls/${id}?documents=top&documents_limit=0`, `/v1/crawls/${id}/documents?order=random`];
    for (const url of [...bads, `/v1/crawls/${id}/progress?best_pages=101`, `/v1/crawls/${id}/progress?best_pages=many`]) {
      const bad = await t.app.inject({ method: 'GET', url, headers: auth() });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toHaveProperty('error');
    }
    for (const path of ['documents', 'progress']) {
      const missing = await t.app.inject({ method: 'GET', url: `/v1/crawls/00000000-0000-4000-8000-000000000000/${path}`, headers: auth() });
      expect(missing.statusCode).toBe(404);
    }
  });
});
