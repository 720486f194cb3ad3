import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startLocalWeb, type LocalWeb } from '@wvr/testkit';
import { createEngine } from '../engine.js';
import { bothDrivers } from '../testing/databases.js';
import { expectSpaced } from '../web/testing.js';
import type { CrawlDetail } from './responses.js';

const DELAY_SECONDS = 0.3;
let web: LocalWeb;
beforeAll(async () => {
  web = await startLocalWeb({ crawlDelaySeconds: { news: DELAY_SECONDS } });
});
afterAll(() => web.close());

const WORKER = fileURLToPath(new URL('./resume.child.ts', import.meta.url));
const drivers = bothDrivers('fleet');

function startWorker(target: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, target], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`worker exited with ${code} before it started`)));
  });
}

describe.each(drivers)('a fleet of workers on %s', { timeout: 90_000 }, (_name, database) => {
  it('two crawls of one Crawl-delay origin on two workers run at once, and the origin sees its delay between every two requests', async () => {
    const db = database();
    const engine = createEngine({ ...db.options, allowPrivateNetwork: true, secret: 'test-secret' });
    const workers: ChildProcess[] = [];
    try {
      const principal = engine.accounts.localPrincipal(await engine.accounts.ensureUser({ email: `fleet-${_name}@x.test` }));
      await engine.credits.grant(principal.userId, 100);
      workers.push(...(await Promise.all([startWorker(db.target), startWorker(db.target)])));
      const since = Date.now();
      const seeds = [`${web.news}/`, `${web.news}/archive`];
      const crawls = (await Promise.all(seeds.map((url) => engine.crawls.create(principal, { urls: [url], max_pages: 5, expansion: 'internal' })))) as CrawlDetail[];
      const finished = await vi.waitFor(
        async () => {
          const now = await Promise.all(crawls.map((c) => engine.crawls.get(principal, c.id, { documents: 'none' })));
          expect(now.map((c) => c.status)).toEqual(['completed', 'completed']);
          return now;
        },
        { timeout: 60_000, interval: 100 },
      );
      // Each worker runs one job at a time: overlapping crawls mean both workers were crawling the origin together.
      const [a, b] = finished.map((c) => ({ start: Date.parse(c.started_at!), end: Date.parse(c.completed_at!) }));
      expect(a!.start).toBeLessThan(b!.end);
      expect(b!.start).toBeLessThan(a!.end);
      expect(finished.map((c) => c.stats.pages_crawled)).toEqual([5, 5]);

      const times = web.requests.filter((r) => r.origin === web.news && r.path !== '/robots.txt' && r.at >= since).map((r) => r.at);
      expect(times.length).toBeGreaterThanOrEqual(10);
      expectSpaced([...times].sort((x, y) => x - y), DELAY_SECONDS * 1000);
    } finally {
      for (const w of workers) w.kill('SIGKILL');
      await engine.close();
    }
  });
});
