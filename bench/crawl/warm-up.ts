/**
 * bench/crawl warm-up: what a page costs the reader on a crawl's first pages, against the same pages once its code is
 * optimised. A fresh process reads a real site's pages through a page reader (ParsePool, one reader thread, the
 * crawler's own), one at a time and in the order of `pages`, twice: cold, then warm. The CPU is the process's, so the
 * optimising compiler's threads and the collector's count with the reader's. Run `rounds` fresh processes; figures
 * are medians.
 *
 *   pnpm --filter @wvr/bench bench:crawl:warm-up -- site=/path/to/site.tar.gz [pages=800 rounds=3]
 */
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildEntry } from '../lib/build.js';
import { runWorker } from '../lib/child.js';
import { machine, writeResult } from '../lib/results.js';
import { serveSite } from './real-site.js';
import type { WarmUpConfig, WarmUpResult } from './warm-up-reader.js';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.split('=') as [string, string]));
if (!args.site) throw new Error('site=PATH (a built website, a folder or a .tar.gz) is required');
const rounds = Number(args.rounds ?? 3);
const site = await serveSite(args.site);
// The pages in the site's listing order (index first), fetched once here: the reader measures reading only.
const urls = site.pages.slice(0, Number(args.pages ?? 800));
const pages = await Promise.all(urls.map(async (url) => ({ url, html: await (await fetch(url)).text() })));
await site.close();

const reader = await buildEntry(join(dirname(fileURLToPath(import.meta.url)), 'warm-up-reader.ts'));
const runs: WarmUpResult[] = [];
for (let round = 0; round < rounds; round++) runs.push(await runWorker<WarmUpConfig, WarmUpResult>(reader, { pages }));

const median = (pick: (r: WarmUpResult) => number) => {
  const sorted = runs.map(pick).sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)]! * 100) / 100;
};
const result = {
  benchmark: 'crawl-warm-up',
  machine: machine(),
  site: args.site.split('/').pop(),
  pages: pages.length,
  rounds,
  coldCpuMsPerPage: median((r) => r.coldCpuMs / pages.length),
  firstHundredCpuMsPerPage: median((r) => r.firstHundredCpuMs / Math.min(100, pages.length)),
  warmCpuMsPerPage: median((r) => r.warmCpuMs / pages.length),
  runs,
};
console.log(
  `${result.site}, ${pages.length} pages, medians of ${rounds} fresh processes: cold ${result.coldCpuMsPerPage} ms of CPU a page ` +
    `(first 100: ${result.firstHundredCpuMsPerPage}), warm ${result.warmCpuMsPerPage} ms`,
);
writeResult('crawl-warm-up', result);
