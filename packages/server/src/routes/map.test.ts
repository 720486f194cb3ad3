import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BULK_PER_SITEMAP, SITEMAP_SITE_TRUTH, startLocalWeb, type LocalWeb } from '@wvr/testkit';
import { openTestServer, type TestServer } from '../testing.js';

/** POST /v1/map over real HTTP on 127.0.0.1, against the local web's sitemaps site. */
let t: TestServer;
let base: string;
let web: LocalWeb;
let crawlToken: string;
let searchToken: string;
let userId: string;

beforeAll(async () => {
  web = await startLocalWeb({ seed: 3, sizes: { products: 20, articles: 12, docsDepth: 1 } });
  t = await openTestServer({ engine: { allowPrivateNetwork: true } });
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  const user = await t.engine.accounts.ensureUser({ email: 'mapper@x.test' });
  userId = user.id;
  crawlToken = (await t.engine.tokens.issue(user.id, { name: 'crawl', scopes: ['crawl'] })).token;
  searchToken = (await t.engine.tokens.issue(user.id, { name: 'search', scopes: ['search'] })).token;
});
afterAll(async () => {
  await t.close();
  await web.close();
});

interface MapAnswer {
  url: string;
  urls: { url: string; lastmod: string | null; source: 'sitemap' | 'links' }[];
  truncated: boolean;
  stats: Record<string, number>;
  sitemaps: { url: string; kind: string | null; status: string; urls: number; error: string | null }[];
  credits: { consumed: number; balance_after: number };
}

async function map(payload: unknown, token = crawlToken, server = base): Promise<{ status: number; body: MapAnswer & Record<string, unknown> }> {
  const res = await fetch(`${server}/v1/map`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  return { status: res.status, body: (await res.json()) as MapAnswer & Record<string, unknown> };
}

const report = (body: MapAnswer, path: string) => body.sitemaps.filter((s) => s.url.endsWith(path));

describe('POST /v1/map', () => {
  it('lists the sitemaps’ URLs (index, nested indexes, gzipped) normalised and deduplicated, with lastmod, plus linked-only pages', async () => {
    const before = await t.engine.credits.balance(userId);
    const { status, body } = await map({ url: `${web.sitemaps}/` });
    expect(status).toBe(200);
    const o = web.sitemaps;
    const fromSitemaps = body.urls.filter((u) => u.source === 'sitemap');
    expect(new Map(fromSitemaps.map((u) => [u.url, u.lastmod]))).toEqual(new Map([...SITEMAP_SITE_TRUTH.sitemapPaths].map(([p, lastmod]) => [`${o}${p}`, lastmod])));
    expect(body.urls.filter((u) => u.source === 'links').map((u) => u.url).sort()).toEqual(SITEMAP_SITE_TRUTH.linkedOnlyPaths.map((p) => `${o}${p}`).sort());
    expect(new Set(body.urls.map((u) => u.url)).size).toBe(body.urls.length);
    const all = body.urls.map((u) => u.url);
    expect(all).not.toContain(`${o}${SITEMAP_SITE_TRUTH.lostPath}`);
    expect(all).not.toContain(`${o}${SITEMAP_SITE_TRUTH.disallowedPath}`);
    expect(all.every((u) => u.startsWith(`${o}/`))).toBe(true);
    expect(all.some((u) => /login|cart|utm_|#/.test(u))).toBe(false);

    // Broken entries are reported, not fatal.
    expect(report(body, SITEMAP_SITE_TRUTH.gzippedSitemap)).toMatchObject([{ status: 'ok', kind: 'urlset', urls: 30 }]);
    expect(report(body, '/sitemaps/missing.xml')).toMatchObject([{ status: 'failed', error: expect.stringContaining('404') }]);
    expect(report(body, '/sitemaps/soft-404.xml')).toMatchObject([{ status: 'failed', kind: null, error: expect.stringContaining('not a sitemap') }]);
    expect(report(body, SITEMAP_SITE_TRUTH.partialSitemap)).toMatchObject([{ status: 'partial', kind: 'urlset', urls: 2 }]);
    expect(report(body, '/sitemaps/nested/level-2.xml')).toMatchObject([{ status: 'ok', kind: 'sitemapindex', urls: 2 }]);
    expect(body.sitemaps.filter((s) => s.url.includes('elsewhere.invalid'))).toMatchObject([{ status: 'skipped', error: expect.stringContaining('another site') }]);
    expect(body.sitemaps.filter((s) => s.url.startsWith('ftp:'))).toMatchObject([{ status: 'skipped' }]);
    // Named twice by robots.txt and once more by a loop in the nested index: read once.
    expect(report(body, '/sitemap-index.xml')).toHaveLength(1);

    expect(body.stats).toMatchObject({ invalid: 3, disallowed: 1, sitemaps_read: 8, discovery_pages: 5 });
    expect(body.stats.duplicates).toBeGreaterThanOrEqual(3);
    expect(body.stats.off_site).toBeGreaterThanOrEqual(2);
    expect(body.truncated).toBe(false);
    expect(body.credits.consumed).toBe(1);
    expect(await t.engine.credits.balance(userId)).toBe(before - 1);
    // Every sitemap went through the engine's fetcher (its user agent), and no page a map does not need was fetched.
    const served = web.requests.filter((r) => r.origin === o);
    expect(served.filter((r) => r.path.startsWith('/sitemap')).every((r) => r.userAgent.includes('wvr'))).toBe(true);
    expect(served.filter((r) => r.path === '/sitemap-index.xml')).toHaveLength(1);
    expect(served.some((r) => r.path.startsWith('/blog/post-5') || r.path.startsWith('/private/'))).toBe(false);
  });

  it('sitemap: only reads no page; skip discovers from links alone, without junk links', async () => {
    const only = await map({ url: `${web.sitemaps}/`, sitemap: 'only' });
    expect(only.status).toBe(200);
    expect(only.body.urls.every((u) => u.source === 'sitemap')).toBe(true);
    expect(only.body.stats.discovery_pages).toBe(0);

    const skip = await map({ url: `${web.news}/`, sitemap: 'skip', max_discovery_pages: 3 });
    expect(skip.status).toBe(200);
    expect(skip.body.sitemaps).toEqual([]);
    expect(skip.body.stats.discovery_pages).toBe(3);
    const urls = skip.body.urls.map((u) => u.url);
    expect(urls).toContain(`${web.news}/`);
    expect(urls.some((u) => u.includes('/article/'))).toBe(true);
    expect(urls.some((u) => u.includes('/section/'))).toBe(true);
    expect(urls.some((u) => /\/(login|cart|share|print)\b|sessionid|utm_/.test(u))).toBe(false);
  });

  it('filters by url_patterns, exclude_patterns and a search term', async () => {
    const blog = await map({ url: `${web.sitemaps}/`, url_patterns: ['/blog/*'] });
    expect(blog.body.urls.map((u) => u.url).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `${web.sitemaps}/blog/post-${i + 1}`).sort());
    const noArchive = await map({ url: `${web.sitemaps}/`, sitemap: 'only', exclude_patterns: ['/archive/*', '/broken/*'] });
    expect(noArchive.body.urls.some((u) => /archive|broken/.test(u.url))).toBe(false);
    expect(noArchive.body.urls.length).toBeGreaterThan(10);
    const guides = await map({ url: `${web.sitemaps}/`, search: 'guides' });
    expect(guides.body.urls.map((u) => u.url).sort()).toEqual(Array.from({ length: 5 }, (_, i) => `${web.sitemaps}/guides/guide-${i + 1}`).sort());
    expect(guides.body.stats.filtered).toBeGreaterThan(0);
  });

  it('stops at limit and says the list was truncated', async () => {
    const { status, body } = await map({ url: `${web.sitemaps}/`, limit: 5 });
    expect(status).toBe(200);
    expect(body.urls).toHaveLength(5);
    expect(body.truncated).toBe(true);
  });

  it('maps a bulk site: a sitemap index of many sitemaps, some gzipped, every URL with its lastmod', async () => {
    const bulk = await startLocalWeb({ sizes: { products: 1, articles: 1, docsDepth: 1 }, sitemaps: { bulkUrls: 5_500 } });
    try {
      const { status, body } = await map({ url: `${bulk.sitemaps}/`, limit: 10_000 });
      expect(status).toBe(200);
      expect(body.urls).toHaveLength(5_500);
      expect(body.urls.every((u) => u.lastmod !== null && u.source === 'sitemap')).toBe(true);
      expect(body.sitemaps.filter((s) => s.kind === 'urlset' && s.status === 'ok')).toHaveLength(Math.ceil(5_500 / BULK_PER_SITEMAP));
      expect(body.stats.discovery_pages).toBe(0);
    } finally {
      await bulk.close();
    }
  });

  it('answers 400 in the error shape for out-of-range limits and bad fields, charging nothing', async () => {
    const before = await t.engine.credits.balance(userId);
    for (const [payload, path] of [
      [{ url: `${web.sitemaps}/`, limit: 0 }, 'limit'],
      [{ url: `${web.sitemaps}/`, limit: 100_001 }, 'limit'],
      [{ url: `${web.sitemaps}/`, max_discovery_pages: 101 }, 'max_discovery_pages'],
      [{ url: `${web.sitemaps}/`, sitemap: 'sometimes' }, 'sitemap'],
      [{ url: `${web.sitemaps}/`, search: '' }, 'search'],
      [{ url: `${web.sitemaps}/`, url_patterns: Array.from({ length: 51 }, () => '/x') }, 'url_patterns'],
      [{ url: 'ftp://example.com/' }, 'url'],
      [{}, 'url'],
      [{ url: `${web.sitemaps}/`, depth: 2 }, ''],
    ] as const) {
      const { status, body } = await map(payload);
      expect(status, JSON.stringify(payload)).toBe(400);
      expect(body).toMatchObject({ error: 'validation_error', code: expect.any(String), message: expect.any(String) });
      if (path) expect((body.details as { fields: { path: string }[] }).fields[0]!.path).toBe(path);
    }
    expect(await t.engine.credits.balance(userId)).toBe(before);
  });

  it('needs the crawl scope', async () => {
    const { status, body } = await map({ url: `${web.sitemaps}/` }, searchToken);
    expect(status).toBe(403);
    expect(body).toMatchObject({ error: 'permission_error' });
  });

  it('refuses a private address on a server that does not allow them (400, nothing charged)', async () => {
    const guarded = await openTestServer();
    try {
      const address = await guarded.app.listen({ host: '127.0.0.1', port: 0 });
      const user = await guarded.engine.accounts.ensureUser({ email: 'g@x.test' });
      const token = (await guarded.engine.tokens.issue(user.id, { name: 'crawl', scopes: ['crawl'] })).token;
      const balance = await guarded.engine.credits.balance(user.id);
      for (const sitemap of ['include', 'only']) {
        const { status, body } = await map({ url: `${web.sitemaps}/`, sitemap }, token, address);
        expect(status).toBe(400);
        expect(body).toMatchObject({ error: 'validation_error', code: 'url_not_allowed' });
      }
      expect(await guarded.engine.credits.balance(user.id)).toBe(balance);
    } finally {
      await guarded.close();
    }
  });
});
