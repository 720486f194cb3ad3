/**
 * The fresh process of bench/crawl/page-cost.ts, run built (as the published engine is, not through tsx's transform):
 * reads its pages, `warm` passes before the clock and `passes` on it. In the crawl's reader (`where: 'reader'`), the
 * reading runs as the engine's page readers read: on a worker thread with their heap limits, each tree built of the last
 * one's nodes (`parseHtmlWith`); in place (`'main'`), with `parseHtml` on the process's main thread, with V8's own
 * limits, where the engine reads a page it extracts, searches or maps. The main thread waits meanwhile, so the
 * process's CPU is the reading's.
 */
import { readFileSync } from 'node:fs';
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { parseHtml } from '@wvr/engine';
import { NodePool } from '../../packages/engine/src/html/node-pool.js';
import { parseHtmlWith } from '../../packages/engine/src/html/parse.js';
import { READER_LIMITS } from '../../packages/engine/src/html/parse-pool.js';
import { receiveConfig, sendResult } from '../lib/child.js';
import { percentile } from '../lib/results.js';

export interface RunConfig {
  /** The pages a pass reads: HTML given, or a file of a real site read by the run. */
  pages: { url: string; html?: string; file?: string }[];
  /** Passes before the clock (compiling, the heap's first growth), at least one, then passes measured. */
  warm: number;
  passes: number;
  where: 'reader' | 'main';
}

export interface RunResult {
  /** HTML characters a pass reads. */
  chars: number;
  /** All the process's CPU over the measured passes, a page read. */
  cpuMsPerPage: number;
  /** The median page read's CPU: for one page, the figure this bench gave before it counted every read. */
  medianReadMs: number;
  faultsPerPage: number;
  /** The kernel's share of cpuMsPerPage: on a large page, mostly the faults of memory the heap takes fresh from the system. */
  systemMsPerPage: number;
  /** The main thread's garbage-collection pauses a page (its collector's helper threads work during them too). */
  gcPauseMsPerPage: number;
  /** Young-generation collections (scavenges) a page. */
  scavengesPerPage: number;
  linksPerPage: number;
  textCharsPerPage: number;
}

/** The reading's figures, measured on the thread that runs it. */
async function measure(config: RunConfig): Promise<RunResult> {
  const pages = config.pages.map(({ url, html, file }) => ({ url, html: html ?? readFileSync(file!, 'utf8') }));
  // As the engine's page reader reads (parse-worker.ts): each tree built of the last one's nodes.
  const nodes = new NodePool();
  const read = config.where === 'reader' ? (html: string, url: string) => parseHtmlWith(nodes, html, url) : parseHtml;
  const readAll = () => pages.map(({ url, html }) => read(html, url));
  // The last warm pass's readings give the pages' links and text: no pass of its own after the clock.
  let readings = readAll();
  for (let i = 1; i < config.warm; i++) readings = readAll();
  const samples: number[] = [];
  const collections: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => void collections.push(...list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  const faults = process.resourceUsage().minorPageFault;
  const start = process.cpuUsage();
  for (let pass = 0; pass < config.passes; pass++) {
    for (const { url, html } of pages) {
      const started = process.cpuUsage();
      read(html, url);
      const used = process.cpuUsage(started);
      samples.push((used.user + used.system) / 1000);
    }
  }
  const used = process.cpuUsage(start);
  const faulted = process.resourceUsage().minorPageFault - faults;
  // The collector's entries are delivered after the pass, a turn of the event loop later.
  await new Promise((resolve) => setImmediate(resolve));
  collections.push(...observer.takeRecords());
  observer.disconnect();
  const kindOf = (entry: PerformanceEntry) => (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
  samples.sort((a, b) => a - b);
  return {
    chars: pages.reduce((sum, p) => sum + p.html.length, 0),
    cpuMsPerPage: (used.user + used.system) / 1000 / samples.length,
    medianReadMs: percentile(samples, 50),
    faultsPerPage: faulted / samples.length,
    systemMsPerPage: used.system / 1000 / samples.length,
    gcPauseMsPerPage: collections.reduce((sum, entry) => sum + entry.duration, 0) / samples.length,
    scavengesPerPage: collections.filter((entry) => kindOf(entry) === constants.NODE_PERFORMANCE_GC_MINOR).length / samples.length,
    linksPerPage: readings.reduce((sum, p) => sum + p.links.length, 0) / pages.length,
    textCharsPerPage: readings.reduce((sum, p) => sum + p.text.length, 0) / pages.length,
  };
}

/** In the crawl's reader: this file again, on a thread with the engine's page readers' heap limits. */
function inReader(config: RunConfig): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(fileURLToPath(import.meta.url), { workerData: config, resourceLimits: READER_LIMITS });
    worker.once('message', resolve);
    worker.once('error', reject);
    // After its answer this settles nothing; before it, a reader that ended without one (its heap's limit) fails the run.
    worker.once('exit', (code) => reject(new Error(`the reading thread exited with ${code} and no result`)));
  });
}

if (!isMainThread) parentPort!.postMessage(await measure(workerData as RunConfig));
else {
  const config = await receiveConfig<RunConfig>();
  await sendResult(config.where === 'reader' ? await inReader(config) : await measure(config));
}
