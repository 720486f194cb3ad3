/**
 * One real crawl through the engine API whose frontier grows to about 100,000 queued URLs:
 * RSS and the frontier's size sampled once a second while it grows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, type SqliteStore } from '@wvr/engine';
import { receiveConfig, sendResult } from '../lib/child.js';

export interface FrontierConfig {
  seed: string;
  maxPages: number;
  windowMs: number;
}

export interface FrontierSample {
  atMs: number;
  rssMb: number;
  heapUsedMb: number;
  frontier: number;
  queued: number;
  fetched: number;
}

export interface FrontierResult {
  samples: FrontierSample[];
  status: string;
  pagesCrawled: number;
  elapsedMs: number;
  finishedInWindow: boolean;
  maxRssMb: number;
}

const config = await receiveConfig<FrontierConfig>();
const dir = mkdtempSync(join(tmpdir(), 'wvr-bench-frontier-'));
const engine = createEngine({ dbPath: join(dir, 'wvr.db'), secret: 'bench', allowPrivateNetwork: true, fetchLimits: { perHostConcurrency: 8 } });
const user = await engine.accounts.ensureUser({ email: 'bench@x.test' });
await engine.credits.grant(user.id, config.maxPages * 2);
const principal = engine.accounts.localPrincipal(user);
// breadth_first: the persisted frontier without smart ordering's periodic HITS passes (measured apart).
const crawl = await engine.crawls.create(
  principal,
  { urls: [config.seed], max_pages: config.maxPages, expansion: 'internal', link_extraction_config: { max_depth: 3 } },
  { strategy: 'breadth_first' },
);
if (!('id' in crawl)) throw new Error('a crawl without dry_run answered a dry run');
const counts = (engine.context.store as SqliteStore).sqlite.prepare(
  `select count(*) as frontier, sum(state = 'queued') as queued, sum(state = 'done') as fetched from crawl_frontier where crawl_id = ?`,
);
const mb = (b: number) => Math.round((b / 1048576) * 10) / 10;
const samples: FrontierSample[] = [];
const started = performance.now();
// With --expose-gc, a full collection before each sample, so heap and RSS show what is live, not garbage not yet collected.
const collect = (globalThis as { gc?: () => void }).gc;
const sample = () => {
  collect?.();
  const c = counts.get(crawl.id) as { frontier: number; queued: number | null; fetched: number | null };
  const m = process.memoryUsage();
  samples.push({ atMs: Math.round(performance.now() - started), rssMb: mb(m.rss), heapUsedMb: mb(m.heapUsed), frontier: c.frontier, queued: c.queued ?? 0, fetched: c.fetched ?? 0 });
};
engine.start({ concurrency: 1, jobPollMs: 20, schedulerIntervalMs: 600_000, deliveryIntervalMs: 600_000 });
let status = 'running';
while (performance.now() - started < config.windowMs) {
  await new Promise((r) => setTimeout(r, 1_000));
  sample();
  status = (await engine.crawls.list(principal, { limit: 1 })).data[0]!.status;
  if (status !== 'pending' && status !== 'running') break;
}
const job = (await engine.crawls.list(principal, { limit: 1 })).data[0]!;
const elapsedMs = Math.round(performance.now() - started);
if (job.status === 'running') await engine.crawls.abort(principal, crawl.id);
await engine.close();
rmSync(dir, { recursive: true, force: true });
await sendResult({
  samples,
  status: job.status,
  pagesCrawled: job.stats.pages_crawled,
  elapsedMs,
  finishedInWindow: job.status === 'completed',
  maxRssMb: mb(process.resourceUsage().maxRSS * 1024),
} satisfies FrontierResult);
