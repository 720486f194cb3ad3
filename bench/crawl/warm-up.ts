/**
 * bench/crawl warm-up: what a page costs the reader on a crawl's first pages, against the same pages once its code is
 * optimised. A fresh process reads a real site's pages through a page reader (ParsePool, one reader thread, the
 * crawler's own), one at a time and in the site's listing order, twice: cold, then warm. The CPU is the process's, so
 * the optimising compiler's threads and the collector's count with the reader's. Run `rounds` fresh processes; figures
 * are medians. Several sites (`site=A,B`) are read with their pages taking turns, as a worker crawling several sites
 * at once reads them: more kinds of page, so more of the code meets shapes it was not compiled for.
 *
 *   pnpm --filter @wvr/bench bench:crawl:warm-up -- site=/path/to/site.tar.gz[,/path/to/other.tar.gz] [pages=800 rounds=3]
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
// Each site's pages in its listing order (index first), fetched once here: the reader measures reading only.
const wanted = Number(args.pages ?? 800);
const sites: { url: string; html: string }[][] = [];
for (const path of args.site.split(',')) {
  const site = await serveSite(path);
  // No site gives more than the pages wanted, whatever the others give.
  sites.push(await Promise.all(site.pages.slice(0, wanted).map(async (url) => ({ url, html: await (await fetch(url)).text() }))));
  await site.close();
}
const pages: { url: string; html: string }[] = [];
for (let i = 0; pages.length < wanted && sites.some((s) => i < s.length); i++) for (const s of sites) if (i < s.length && pages.length < wanted) pages.push(s[i]!);

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
  site: args.site.split(',').map((path) => path.split('/').pop()).join(' + '),
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
