/**
 * bench/crawl frontier run: a fan-out site (every page links 100 new pages, served by a tiny
 * node:http server here, since the catalogue's pages carry about 20 links each) crawled
 * breadth-first for 1,000 pages with depth 3, so the persisted frontier grows to about
 * 100,000 queued URLs. RSS and live heap (after a forced GC) are sampled every second against
 * the frontier's size; flat figures mean the frontier lives in SQLite, not in the process.
 *
 *   pnpm --filter @wvr/bench bench:crawl:frontier [-- pages=1000 window=150]
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildEntry } from '../lib/build.js';
import { runWorker } from '../lib/child.js';
import { machine, writeResult } from '../lib/results.js';
import type { FrontierConfig, FrontierResult } from './frontier-worker.js';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.split('=') as [string, string]));
const maxPages = Number(args.pages ?? 1_000);
const windowMs = Number(args.window ?? 150) * 1000;
const FANOUT = 100;
const here = dirname(fileURLToPath(import.meta.url));

const server = createServer((req, res) => {
  const id = Number(/^\/p\/(\d+)$/.exec(req.url ?? '')?.[1]);
  if (!Number.isSafeInteger(id)) {
    res.writeHead(404).end();
    return;
  }
  const links = Array.from({ length: FANOUT }, (_, k) => `<li><a href="/p/${id * FANOUT + k + 1}">Item ${id * FANOUT + k + 1}</a></li>`).join('');
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html lang="en"><head><title>Page ${id}</title></head><body><h1>Page ${id}</h1><p>Fan-out page ${id} of the frontier benchmark.</p><ul>${links}</ul></body></html>`);
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
console.log(`fan-out site ${origin}: ${maxPages} pages, ${FANOUT} links each, window ${windowMs / 1000} s`);

const file = await buildEntry(join(here, 'frontier-worker.ts'));
const result = await runWorker<FrontierConfig, FrontierResult>(file, { seed: `${origin}/p/0`, maxPages, windowMs }, ['--expose-gc']);
server.close();

for (const s of result.samples.filter((_, i, all) => i % 5 === 0 || i === all.length - 1)) {
  console.log(`${(s.atMs / 1000).toFixed(0).padStart(4)} s  frontier ${String(s.frontier).padStart(7)}  queued ${String(s.queued).padStart(7)}  fetched ${String(s.fetched).padStart(5)}  RSS ${s.rssMb} MB  heap ${s.heapUsedMb} MB`);
}
const growing = result.samples.filter((s) => s.frontier >= 10_000);
const rss = growing.map((s) => s.rssMb);
const summary = {
  status: result.status,
  pagesCrawled: result.pagesCrawled,
  frontierMax: Math.max(...result.samples.map((s) => s.frontier)),
  rssAt10kMb: rss[0] ?? null,
  rssAtMaxMb: rss.at(-1) ?? null,
  rssMinMaxWhileGrowingMb: rss.length ? [Math.min(...rss), Math.max(...rss)] : null,
  maxRssMb: result.maxRssMb,
};
console.log(JSON.stringify(summary, null, 2));
console.log(`written ${writeResult('crawl-frontier', { benchmark: 'crawl-frontier', machine: machine(), maxPages, fanout: FANOUT, summary, ...result })}`);
