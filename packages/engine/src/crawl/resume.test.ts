import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startLocalWeb, type LocalWeb } from '@wvr/testkit';
import { createEngine } from '../engine.js';
import type { Store } from '../store/store.js';
import { bothDrivers } from '../testing/databases.js';
import type { CrawlDetail } from './responses.js';
import { REGION_WEIGHTS } from './graph.js';
import { GraphScores, LinkGraph } from './graph-scores.js';

let web: LocalWeb;
beforeAll(async () => {
  web = await startLocalWeb({ sizes: { products: 2000 } });
});
afterAll(() => web.close());

const CHILD = fileURLToPath(new URL('./resume.child.ts', import.meta.url));
const MAX_PAGES = 120;
const drivers = bothDrivers('resume');

/**
 * The resumed run scored the documents from a graph it loaded from the edge table and then grew in
 * memory; HITS over the edge table as stored must give the same scores, region weights included.
 */
async function expectScoresFromStoredGraph(store: Store, crawlId: string, done: CrawlDetail): Promise<void> {
  const frontier = store.crawl.frontier(crawlId, false);
  const edges = await frontier.edgeIds(REGION_WEIGHTS);
  expect(new Set(edges.weight)).toEqual(new Set([1, 0.5, 0.1]));
  const graph = GraphScores.of(new LinkGraph(edges));
  for (const doc of done.documents) {
    const node = (await frontier.get(doc.url))!.id;
    expect(doc.hub_score).toBeCloseTo(graph.hubOf(node), 3);
    expect(doc.authority_score).toBeCloseTo(graph.authorityOf(node), 3);
    expect(doc.outlink_count).toBe(graph.outlinksOf(node));
  }
}

describe.each(drivers)('crawl resume on %s', (_name, database) => {
  it('finishes on another worker a crawl whose worker was killed with SIGKILL, storing and charging every page exactly once', async () => {
    const db = database();
    const options = { ...db.options, allowPrivateNetwork: true, secret: 'test-secret' };
    const first = createEngine(options);
    const user = await first.accounts.ensureUser({ email: 'resume@x.test' });
    await first.credits.grant(user.id, 1000);
    const principal = first.accounts.localPrincipal(user);
    const before = await first.credits.balance(user.id);
    const crawl = (await first.crawls.create(principal, { urls: [`${web.catalogue}/`], max_pages: MAX_PAGES, expansion: 'internal', link_extraction_config: { max_depth: 3 } })) as CrawlDetail;
    await first.close();

    const store = db.open();
    const pagesCrawled = async () => (await store.crawl.get(crawl.id))!.pagesFetched;
    let second: ReturnType<typeof createEngine> | undefined;
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', CHILD, db.target], { stdio: ['ignore', 'pipe', 'inherit'] });
      const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
      try {
        await vi.waitFor(async () => expect(await pagesCrawled()).toBeGreaterThanOrEqual(10), { timeout: 30_000, interval: 20 });
      } finally {
        child.kill('SIGKILL');
      }
      expect(await exited).toBe('SIGKILL');
      const atKill = await pagesCrawled();
      expect(atKill).toBeLessThan(MAX_PAGES);

      // Another worker: a new engine on the same database, as a second process would be.
      second = createEngine(options);
      expect((await second.crawls.get(principal, crawl.id)).status).toBe('running');
      await second.jobs.drain();
      const done = await second.crawls.get(principal, crawl.id);
      console.log(`${_name}: killed at ${atKill} pages; resumed and finished with ${done.documents.length} pages, ${done.stats.credits_used} credits`);
      expect(done.status).toBe('completed');
      expect(done.documents).toHaveLength(MAX_PAGES);
      expect(new Set(done.documents.map((d) => d.url)).size).toBe(MAX_PAGES);
      expect(done.documents.every((d) => d.credits === 1)).toBe(true);
      expect(done.stats.credits_used).toBe(MAX_PAGES);
      expect(await second.credits.balance(user.id)).toBe(before - MAX_PAGES);
      expect(await second.credits.ledgerSum(user.id)).toBe(before - MAX_PAGES);
      await expectScoresFromStoredGraph(store, crawl.id, done);
    } finally {
      await second?.close();
      await store.close();
    }
  });
});
