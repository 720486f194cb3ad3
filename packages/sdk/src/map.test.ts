import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WvrApiError } from './index.js';
import { serveLoopback, startTestApi, type LoopbackSite, type TestApi } from './testing.js';

/**
 * client.map over the real server, and the render field's 400 as the SDK raises it. The site is a
 * small one on loopback (the SDK does not depend on the testkit): robots.txt names a sitemap index
 * whose children are a plain sitemap, a gzipped one and a missing one.
 */
let api: TestApi;
let bare: TestApi;
let site: LoopbackSite;
let o: string;

const urlset = (entries: [string, string][]) =>
  `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries.map(([path, lastmod]) => `<url><loc>${o}${path}</loc><lastmod>${lastmod}</lastmod></url>`).join('')}</urlset>`;

beforeAll(async () => {
  api = await startTestApi({ engine: { allowPrivateNetwork: true }, client: { retry: { attempts: 1 } } });
  bare = await startTestApi({ engine: { allowPrivateNetwork: true, render: { chromiumPath: null } }, client: { retry: { attempts: 1 } } });
  site = await serveLoopback((req, res) => {
    const xml = { 'content-type': 'application/xml' };
    switch (req.url) {
      case '/robots.txt':
        return res.writeHead(200, { 'content-type': 'text/plain' }).end(`User-agent: *\nDisallow: /private/\nSitemap: ${o}/sitemap-index.xml\n`);
      case '/sitemap-index.xml':
        return res.writeHead(200, xml).end(
          `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
            ['/pages.xml', '/posts.xml.gz', '/missing.xml'].map((p) => `<sitemap><loc>${o}${p}</loc></sitemap>`).join('') +
            `</sitemapindex>`,
        );
      case '/pages.xml':
        return res.writeHead(200, xml).end(urlset([['/', '2026-01-01'], ['/about', '2026-01-02'], ['/private/admin', '2026-01-03'], ['/about#team', '2026-01-04']]));
      case '/posts.xml.gz':
        return res.writeHead(200, { 'content-type': 'application/gzip' }).end(gzipSync(urlset([['/posts/kettle', '2026-02-01'], ['/posts/kettle-review', '2026-02-02']])));
      default:
        return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  o = site.origin;
});
afterAll(async () => {
  await api.close();
  await bare.close();
  await site.close();
});

describe('client.map', () => {
  it('lists the sitemaps’ URLs with lastmod, deduplicated, robots-checked, and reports the broken sitemap', async () => {
    const map = await api.client.map({ url: `${o}/`, sitemap: 'only' });
    expect(map.urls.map((u) => [u.url, u.lastmod])).toEqual([
      [`${o}/`, '2026-01-01'],
      [`${o}/about`, '2026-01-02'],
      [`${o}/posts/kettle`, '2026-02-01'],
      [`${o}/posts/kettle-review`, '2026-02-02'],
    ]);
    expect(map.sitemaps.find((s) => s.url.endsWith('/missing.xml'))).toMatchObject({ status: 'failed' });
    expect(map.sitemaps.find((s) => s.url.endsWith('/posts.xml.gz'))).toMatchObject({ status: 'ok', urls: 2 });
    expect(map.stats).toMatchObject({ disallowed: 1, duplicates: 1 });
    expect(map.credits.consumed).toBe(1);
  });

  it('filters with url_patterns and search', async () => {
    const posts = await api.client.map({ url: `${o}/`, sitemap: 'only', url_patterns: ['/posts/*'] });
    expect(posts.urls.map((u) => u.url)).toEqual([`${o}/posts/kettle`, `${o}/posts/kettle-review`]);
    // Best matches first: both words, then one of them.
    const found = await api.client.map({ url: `${o}/`, sitemap: 'only', search: 'kettle review' });
    expect(found.urls.map((u) => u.url)).toEqual([`${o}/posts/kettle-review`, `${o}/posts/kettle`]);
    // A search of a stopword alone still finds the page named by it.
    const about = await api.client.map({ url: `${o}/`, sitemap: 'only', search: 'about' });
    expect(about.urls.map((u) => u.url)).toEqual([`${o}/about`]);
  });

  it('raises the 400 in the error shape for a limit out of range', async () => {
    const error = await api.client.map({ url: `${o}/`, limit: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WvrApiError);
    expect(error).toMatchObject({ status: 400, error: 'validation_error', details: { fields: [{ path: 'limit' }] } });
  });
});

describe('render through the SDK on a server without Chromium', () => {
  it('render: always answers 400 render_unavailable over HTTP, charging nothing', async () => {
    const before = (await bare.client.credits.get()).balance;
    for (const attempt of [
      () => bare.client.extraction.preview({ url: `${o}/about`, extraction_schema: { title: 'The title of the page' }, render: 'always' }),
      () => bare.client.brand.designSystem({ url: `${o}/about`, render: 'always' }),
      () => bare.client.crawls.create({ urls: [`${o}/about`], processing_mode: 'sync', max_pages: 1, render: 'always' }),
    ]) {
      const error = await attempt().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WvrApiError);
      expect(error).toMatchObject({ status: 400, error: 'validation_error', code: 'render_unavailable' });
    }
    expect((await bare.client.credits.get()).balance).toBe(before);
  });
});
