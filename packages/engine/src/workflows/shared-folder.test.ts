import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startLocalWeb, type LocalWeb } from '@wvr/testkit';
import { createEngine } from '../engine.js';
import { openTestEngine, fundedPrincipalOf } from '../testing/engine.js';

let web: LocalWeb;
beforeAll(async () => {
  // A crawl-delay keeps the patrol's crawl running long enough for another engine to take it over.
  web = await startLocalWeb({ sizes: { articles: 30 }, crawlDelaySeconds: { news: 0.2 } });
});
afterAll(async () => {
  await web.close();
});

describe('crawl patrols with another engine on the data folder', () => {
  it('follow their crawl to its end when another engine takes the crawl job over', async () => {
    const t = openTestEngine({ allowPrivateNetwork: true });
    const other = createEngine({ ...t.store, clock: t.clock, allowPrivateNetwork: true, secret: 'test-secret' });
    try {
      const p = await fundedPrincipalOf(t.engine, 'patrol@x.test', 1_000);
      const { workflow } = await t.engine.workflows.create(p, {
        name: 'news watch',
        workflow_type: 'crawl',
        operation_config: { urls: [web.news], max_pages: 8, expansion: 'internal' },
        interval: '1 day',
      });
      const execution = t.engine.workflows.execute(p, workflow!.id);
      const crawl = await vi.waitFor(async () => {
        const [running] = (await t.engine.crawls.list(p)).data.filter((c) => c.status === 'running' && c.stats.pages_crawled >= 1);
        if (!running) throw new Error('no crawl page yet');
        return running;
      }, { timeout: 30_000, interval: 20 });
      // This engine's lease runs out (a stall, a lost heartbeat): the other engine claims the job and finishes the crawl.
      // A holder renews a lapsed lease nobody has claimed yet, and this engine's next page may do so before the
      // other's claim lands (it did under CI's load): the lease is let run out again until the claim wins.
      const taken = await vi.waitFor(async () => {
        t.clock.advance(2 * 60_000);
        const [job] = await other.jobs.runDue();
        if (!job) throw new Error('the crawl job was not claimed yet');
        return job;
      }, { timeout: 30_000, interval: 20 });
      expect(taken).toMatchObject({ id: crawl.id, status: 'succeeded' });

      const run = (await execution).execution!;
      expect(run.error ?? null).toBeNull();
      expect(run).toMatchObject({ status: 'completed', result_count: 8 });
      expect(await t.engine.crawls.get(p, crawl.id)).toMatchObject({ status: 'completed', stats: { pages_crawled: 8 } });
    } finally {
      await other.close();
      await t.dispose();
    }
  }, 60_000);
});
