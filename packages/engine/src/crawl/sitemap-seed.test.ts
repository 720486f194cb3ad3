import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SITEMAP_SITE_TRUTH, startLocalWeb, type LocalWeb } from '@wvr/testkit';
import { fundedPrincipalOf, openTestEngine, type TestEngine } from '../testing/engine.js';

/** Crawls of the local web's sitemaps site, whose guides and archive pages no page links to. */
let web: LocalWeb;
let t: TestEngine;
beforeAll(async () => {
  web = await startLocalWeb({ seed: 5, sizes: { products: 5, articles: 3, docsDepth: 1 } });
  t = openTestEngine({ allowPrivateNetwork: true });
});
afterAll(async () => {
  await t.dispose();
  await web.close();
});

type CrawlBody = Parameters<TestEngine['engine']['ops']['crawls']['create']>[0];
const crawledPaths = async (body: Omit<CrawlBody, 'urls'>) => {
  const created = await t.engine.ops.crawls.create({ urls: [`${web.sitemaps}/`], max_pages: 90, ...body });
  if (!('id' in created)) throw new Error('a real crawl was asked for');
  await t.engine.jobs.drain();
  expect((await t.engine.ops.crawls.get({ id: created.id, documents: 'none' })).status).toBe('completed');
  const { data } = await t.engine.ops.crawls.documents({ id: created.id, limit: 100 });
  return new Set(data.map((d) => new URL(d.url).pathname));
};

describe('sitemap: include', () => {
  it('seeds the frontier with the pages only the sitemaps list; without it the crawl never finds them', async () => {
    const sitemapOnly = [...SITEMAP_SITE_TRUTH.sitemapPaths.keys()].filter((p) => p.startsWith('/guides/') || p.startsWith('/archive/'));
    const plain = await crawledPaths({ expansion: 'internal' });
    expect(sitemapOnly.filter((p) => plain.has(p))).toEqual([]);

    const seeded = await crawledPaths({ sitemap: 'include' });
    // Every sitemap page (expansion internal implied), the page one link away that no sitemap lists, none robots.txt disallows.
    expect(sitemapOnly.filter((p) => !seeded.has(p))).toEqual([]);
    expect(seeded.has(SITEMAP_SITE_TRUTH.linkedOnlyPaths[0])).toBe(true);
    expect(seeded.has(SITEMAP_SITE_TRUTH.disallowedPath)).toBe(false);
  });

  it('holds sitemap URLs to the crawl’s patterns and budget', async () => {
    const seeded = await crawledPaths({ sitemap: 'include', max_pages: 8, link_extraction_config: { url_patterns: ['/', '/guides/*'] } });
    expect(seeded.size).toBeLessThanOrEqual(8);
    expect([...seeded].filter((p) => p !== '/' && !p.startsWith('/guides/'))).toEqual([]);
    expect([...seeded].filter((p) => p.startsWith('/guides/')).length).toBe(5);
  });
});

describe('workflows seeded from the map', () => {
  it('a crawl workflow (operation_config) and a multi_step crawl step with sitemap: include reach the pages only the sitemaps list', async () => {
    const p = await fundedPrincipalOf(t.engine, 'seeded@x.test', 1000);
    const guides = [...SITEMAP_SITE_TRUTH.sitemapPaths.keys()].filter((path) => path.startsWith('/guides/'));
    const config = { urls: [`${web.sitemaps}/`], max_pages: 20, link_extraction_config: { url_patterns: ['/', '/guides/*'] } };
    const resultPaths = async (body: Record<string, unknown>) => {
      const { workflow } = await t.engine.workflows.create(p, { name: 'map seeded', interval: '1 day', ...body });
      const { execution } = await t.engine.workflows.execute(p, workflow!.id);
      expect(execution).toMatchObject({ status: 'completed' });
      return new Set(execution!.results!.map((r) => new URL(r.url).pathname));
    };

    const simple = await resultPaths({ workflow_type: 'crawl', operation_config: { ...config, sitemap: 'include' } });
    expect(guides.filter((path) => !simple.has(path))).toEqual([]);
    // A step has no patterns: a budget for the whole site.
    const step = await resultPaths({ mode: 'multi_step', steps: [{ id: 'site', type: 'crawl', config: { urls: config.urls, max_pages: 100, sitemap: 'include' } }] });
    expect(guides.filter((path) => !step.has(path))).toEqual([]);
    // The baseline: the same step without the map never reaches them (no page links to a guide).
    const unseeded = await resultPaths({ mode: 'multi_step', steps: [{ id: 'site', type: 'crawl', config: { urls: config.urls, max_pages: 100 } }] });
    expect(guides.filter((path) => unseeded.has(path))).toEqual([]);
  });
});
