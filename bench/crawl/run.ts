/**
 * bench/crawl: one local catalogue site, three contenders in turn, each in its own child
 * process so its memory is its own: the raw undici GET loop (the ceiling), Crawlee's
 * CheerioCrawler and wvr's crawler, at one concurrency, all from this run.
 *
 *   pnpm --filter @wvr/bench bench:crawl [-- pages=5000 concurrency=8 profile=wvr]
 *
 * `profile=<name>` runs that contender with --cpu-prof; the profile lands in bench/.results/profiles.
 */
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLocalWeb } from '@wvr/testkit';
import { machine, resultsDir, writeResult } from '../lib/results.js';
import { buildEntry } from '../lib/build.js';
import { runWorker } from '../lib/child.js';
import type { ContenderConfig, ContenderResult } from './contenders/protocol.js';
import { pageList, seeds } from './site.js';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.split('=') as [string, string]));
const pages = Number(args.pages ?? 5_000);
const concurrency = Number(args.concurrency ?? 8);
const only = args.only?.split(',');
const profile = args.profile;
const here = dirname(fileURLToPath(import.meta.url));

const web = await startLocalWeb({ seed: 1, sizes: { products: pages } });
const config: ContenderConfig = { origin: web.catalogue, seeds: seeds(web), urls: pageList(web, pages), pages, concurrency };
console.log(`local catalogue ${web.catalogue}: ${pages} pages wanted, concurrency ${concurrency}, ${config.seeds.length} seeds`);

async function runChild(name: string): Promise<ContenderResult> {
  const file = await buildEntry(join(here, 'contenders', `${name}.ts`));
  const execArgv: string[] = [];
  if (profile === name) execArgv.push('--cpu-prof', `--cpu-prof-dir=${join(resultsDir, 'profiles')}`, `--cpu-prof-name=${name}-${Date.now()}.cpuprofile`);
  return runWorker<ContenderConfig, ContenderResult>(file, config, execArgv);
}

const results: Record<string, ContenderResult> = {};
for (const name of ['raw', 'crawlee', 'wvr']) {
  if (only && !only.includes(name)) continue;
  const before = web.requests.length;
  const r = await runChild(name);
  r.notes.serverRequests = web.requests.length - before;
  results[name] = r;
  console.log(`${r.name}: ${r.pages} pages (${r.failed} failed) in ${(r.elapsedMs / 1000).toFixed(1)} s = ${r.pagesPerSecond} pages/s, peak RSS ${r.memory.peakRssMb} MB`);
}
await web.close();

const ratio = (a: number | undefined, b: number | undefined) => (a && b ? Math.round((a / b) * 100) / 100 : null);
const { raw, crawlee, wvr } = results;
const ratios = {
  wvrVsCrawleePagesPerSecond: ratio(wvr?.pagesPerSecond, crawlee?.pagesPerSecond),
  wvrVsRawPagesPerSecond: ratio(wvr?.pagesPerSecond, raw?.pagesPerSecond),
  crawleeVsRawPagesPerSecond: ratio(crawlee?.pagesPerSecond, raw?.pagesPerSecond),
  wvrVsCrawleePeakRss: ratio(wvr?.memory.peakRssMb, crawlee?.memory.peakRssMb),
};
const targets = {
  'wvr >= 2x CheerioCrawler pages/s': ratios.wvrVsCrawleePagesPerSecond === null ? null : ratios.wvrVsCrawleePagesPerSecond >= 2,
  'wvr >= 60% of the raw ceiling': ratios.wvrVsRawPagesPerSecond === null ? null : ratios.wvrVsRawPagesPerSecond >= 0.6,
  'wvr peak RSS < half of CheerioCrawler': ratios.wvrVsCrawleePeakRss === null ? null : ratios.wvrVsCrawleePeakRss < 0.5,
};
console.log(JSON.stringify({ ratios, targets }, null, 2));
const file = writeResult('crawl', { benchmark: 'crawl', machine: machine(), pages, concurrency, results, ratios, targets });
console.log(`written ${file}`);
