import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalWeb, type LocalWeb } from './index.js';

const get = async (url: string) => {
  const res = await fetch(url, { redirect: 'manual' });
  return { status: res.status, body: await res.text(), type: res.headers.get('content-type') ?? '' };
};
const digest = (text: string) => createHash('sha256').update(text).digest('hex');

describe('startLocalWeb', () => {
  let web: LocalWeb;
  beforeAll(async () => {
    web = await startLocalWeb({ seed: 7, sizes: { products: 120, articles: 20, docsDepth: 2 }, crawlDelaySeconds: { news: 3 } });
  });
  afterAll(() => web.close());

  it('serves each site on its own 127.0.0.1 origin', async () => {
    const origins = [web.catalogue, web.news, web.docs, web.lab, web.search, web.apps, web.sitemaps];
    expect(new Set(origins).size).toBe(7);
    for (const origin of origins) expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await get(`${web.catalogue}/`)).body).toContain('Northwind Goods');
    expect((await get(`${web.news}/`)).body).toContain('The Daily Ledger');
    expect((await get(`${web.docs}/docs`)).body).toContain('Orbit Docs');
    expect((await get(`${web.lab}/`)).status).toBe(200);
  });

  it('logs every request server-side with origin, path, status and user agent', async () => {
    const before = web.requests.length;
    await fetch(`${web.docs}/nowhere?x=1`, { headers: { 'user-agent': 'wvr-test/1' } });
    const entry = web.requests[before]!;
    expect(entry).toMatchObject({ origin: web.docs, path: '/nowhere?x=1', method: 'GET', status: 404, userAgent: 'wvr-test/1' });
    expect(entry.at).toBeGreaterThan(0);
  });

  it('writes Crawl-delay only for the sites given one, and a Disallow of the private area everywhere', async () => {
    const news = (await get(`${web.news}/robots.txt`)).body;
    const catalogue = (await get(`${web.catalogue}/robots.txt`)).body;
    expect(news).toContain('Crawl-delay: 3');
    expect(catalogue).not.toContain('Crawl-delay');
    for (const robots of [news, catalogue, (await get(`${web.docs}/robots.txt`)).body]) {
      expect(robots).toContain('Disallow: /private/');
      expect(robots).toMatch(/^Sitemap: http:\/\/127\.0\.0\.1:\d+\/sitemap-index\.xml$/m);
    }
  });

  it('lists exactly the live content pages in the sitemaps reached from the sitemap index', async () => {
    for (const [origin, expected] of [[web.catalogue, web.truth.productUrls()], [web.news, web.truth.articleUrls()], [web.docs, web.truth.docUrls()]] as const) {
      const index = (await get(`${origin}/sitemap-index.xml`)).body;
      const parts = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
      expect(parts).toContain(`${origin}/sitemap.xml`);
      const listed: string[] = [];
      for (const part of parts.filter((p) => !p.endsWith('/sitemap.xml'))) {
        listed.push(...[...(await get(part)).body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!));
      }
      expect(listed.sort()).toEqual([...expected].sort());
    }
  });

  it('links junk URLs from content pages and answers them', async () => {
    const page = (await get(web.truth.productUrl(1)!)).body;
    for (const junk of ['/login?next=', '/cart?add=1', '/share?u=', '/print/product/1-', '?sessionid=', '?utm_source=', '/private/staff']) expect(page).toContain(junk);
    expect((await get(`${web.catalogue}/private/staff`)).status).toBe(200);
    expect((await get(`${web.news}/cart?add=3`)).status).toBe(200);
  });

  it('serves the same bytes for the same seed and different pages for another seed', async () => {
    const sizes = { products: 120, articles: 20, docsDepth: 2 };
    const twin = await startLocalWeb({ seed: 7, sizes });
    const other = await startLocalWeb({ seed: 8, sizes });
    try {
      const pages = [['catalogue', web.truth.product(5)!.path], ['catalogue', '/category/headphones?page=2'], ['news', web.truth.article(5)!.path], ['docs', '/docs/install']] as const;
      const body = async (w: LocalWeb, site: 'catalogue' | 'news' | 'docs', path: string) => (await get(w[site] + path)).body.replaceAll(w[site], '');
      for (const [site, path] of pages) expect(await body(twin, site, path)).toBe(await body(web, site, path));
      expect(twin.truth.product(5)).toEqual(web.truth.product(5));
      expect(other.truth.product(5)!.name).not.toBe(web.truth.product(5)!.name);
      expect(await body(other, 'docs', '/docs/install')).not.toBe(await body(web, 'docs', '/docs/install'));
    } finally {
      await Promise.all([twin.close(), other.close()]);
    }
  });

  it('rejects sizes beyond the supported range', async () => {
    await expect(startLocalWeb({ sizes: { products: 100_001 } })).rejects.toThrow(RangeError);
    expect(() => web.setVersion(0)).toThrow(RangeError);
  });
});

describe('the version knob', () => {
  it('adds, removes and edits exactly the content pages the truth names, and leaves the others byte-identical', async () => {
    const web = await startLocalWeb({ seed: 3, sizes: { products: 80, articles: 12, docsDepth: 2 } });
    try {
      const bodies = async () => {
        const out = new Map<string, { status: number; hash: string }>();
        const urls = new Set([...web.truth.contentUrls(1), ...web.truth.contentUrls(2)]);
        for (const url of urls) {
          const res = await get(url);
          out.set(url, { status: res.status, hash: digest(res.body) });
        }
        return out;
      };
      const v1 = await bodies();
      web.setVersion(2);
      expect(web.version).toBe(2);
      const v2 = await bodies();
      const changes = web.truth.changes(1, 2);
      expect(changes.added.length).toBe(5 + 3 + 1);
      expect(changes.removed.length).toBe(Math.floor(80 / 17));
      const onSale = Array.from({ length: 80 }, (_, i) => i + 1).filter((id) => id % 11 === 0 && id % 17 !== 0).map((id) => web.truth.productUrl(id)!);
      const rewritten = web.news + web.truth.article(12)!.path;
      expect(changes.edited.sort()).toEqual([...onSale, rewritten, `${web.docs}/docs`, `${web.docs}/docs/install`].sort());

      for (const [url, now] of v2) {
        const was = v1.get(url)!;
        if (changes.added.includes(url)) {
          expect([was.status, now.status], url).toEqual([404, 200]);
        } else if (changes.removed.includes(url)) {
          expect(was.status, url).toBe(200);
          expect([404, 410], url).toContain(now.status);
        } else if (changes.edited.includes(url)) {
          expect(now.status, url).toBe(200);
          expect(now.hash, url).not.toBe(was.hash);
        } else {
          expect(now, url).toEqual(was);
        }
      }
    } finally {
      await web.close();
    }
  });
});
