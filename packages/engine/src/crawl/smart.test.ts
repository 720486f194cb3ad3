import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalWeb, type LocalWeb } from '@wvr/testkit';
import { openTestEngine } from '../testing/engine.js';
import type { CrawlDetail } from './responses.js';

let web: LocalWeb;
beforeAll(async () => {
  web = await startLocalWeb({ sizes: { products: 2000 } });
});
afterAll(async () => web.close());

async function crawlWith(strategy: 'smart' | 'breadth_first', intent?: string, maxPages = 40) {
  const t = openTestEngine({ allowPrivateNetwork: true });
  try {
    const user = await t.engine.accounts.ensureUser({ email: 'smart@x.test' });
    await t.engine.credits.grant(user.id, 1000);
    const principal = t.engine.accounts.localPrincipal(user);
    const body = { urls: [`${web.catalogue}/`], max_pages: maxPages, expansion: 'internal', ...(intent ? { intent } : {}), link_extraction_config: { detect_pagination: true } };
    const created = (await t.engine.crawls.create(principal, body, { strategy })) as CrawlDetail;
    await t.engine.jobs.drain();
    return await t.engine.crawls.get(principal, created.id);
  } finally {
    await t.dispose();
  }
}

describe('smart crawl', () => {
  it('finds more pages of the relevant subset than breadth-first for the same intent and budget', async () => {
    const category = web.truth.categories.find((c) => c.slug === 'headphones')!;
    const relevant = new Set(web.truth.relevantUrls(category.slug));
    const precision = (crawl: CrawlDetail) => crawl.documents.filter((d) => relevant.has(d.url)).length / crawl.documents.length;

    const smart = await crawlWith('smart', category.intent);
    const bfs = await crawlWith('breadth_first', category.intent);
    console.log(
      `intent "${category.intent}", 40 pages: smart precision ${precision(smart).toFixed(3)} (${smart.documents.length} pages), breadth-first ${precision(bfs).toFixed(3)} (${bfs.documents.length} pages)`,
    );
    expect(smart.documents).toHaveLength(40);
    expect(bfs.documents).toHaveLength(40);
    expect(precision(smart)).toBeGreaterThan(precision(bfs));
    expect(precision(smart)).toBeGreaterThan(0.4);
  });

  it('reports graph scores on every result and the smart_crawl block', async () => {
    const crawl = await crawlWith('smart', 'portable bluetooth speaker');
    for (const doc of crawl.documents) {
      expect(doc.importance_score).toBeGreaterThanOrEqual(0);
      expect(doc.hub_score).toBeGreaterThanOrEqual(0);
      expect(doc.authority_score).toBeGreaterThanOrEqual(0);
      expect(Array.isArray(doc.anchor_texts)).toBe(true);
    }
    const listing = crawl.documents.find((d) => d.url.includes('/category/speakers'))!;
    expect(listing.outlink_count).toBeGreaterThan(5);
    expect(listing.hub_score).toBeGreaterThan(0);
    expect(crawl.documents.some((d) => d.inlink_count > 0 && d.anchor_texts.length > 0)).toBe(true);
    const block = crawl.smart_crawl!;
    expect(block.stats.total_edges).toBeGreaterThan(block.stats.total_nodes / 2);
    expect(block.top_pages[0]!.importance).toBeGreaterThan(0);
    expect(block.hubs.length).toBeGreaterThan(0);
    expect(block.authorities.length).toBeGreaterThan(0);
    expect(Object.keys(block.domain_authority)).toContain('127.0.0.1');
    expect(block.efficiency.coverage_ratio).toBeGreaterThan(0);
    expect(block.efficiency.coverage_ratio).toBeLessThanOrEqual(1);
  });

  it('ranks the shop by its content, not its template: the top authority is a product or category page, never a footer page', async () => {
    const crawl = await crawlWith('smart', undefined, 60);
    const block = crawl.smart_crawl!;
    const path = (url: string) => new URL(url).pathname;
    console.log(`shop, 60 pages: authorities ${block.authorities.slice(0, 5).map((a) => `${path(a.url)} ${a.score}`).join(', ')}; hubs ${block.hubs.slice(0, 3).map((h) => `${path(h.url)} ${h.score}`).join(', ')}`);
    const template = ['/privacy', '/about', '/login', '/categories', '/deals', '/'];
    expect(path(block.authorities[0]!.url)).toMatch(/^\/(product|category)\//);
    for (const a of block.authorities.slice(0, 3)) expect(template).not.toContain(path(a.url));
    const privacy = crawl.documents.find((d) => path(d.url) === '/privacy');
    if (privacy) {
      expect(privacy.authority_score).toBeLessThan(0.5);
      // The plain counts still see every link: the footer page is linked from every fetched page.
      expect(privacy.inlink_count).toBeGreaterThan(10);
    }
    expect(path(block.hubs[0]!.url)).toMatch(/^\/(category\/|$)/);
  });
});
