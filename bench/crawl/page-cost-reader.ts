/**
 * The fresh process of bench/crawl/page-cost.ts, run built (as the published engine is, not through tsx's transform):
 * reads its pages with `parseHtml`, `warm` passes before the clock and `passes` on it.
 */
import { readFileSync } from 'node:fs';
import { parseHtml } from '@wvr/engine';
import { receiveConfig, sendResult } from '../lib/child.js';
import { percentile } from '../lib/results.js';

export interface RunConfig {
  /** The pages a pass reads: HTML given, or a file of a real site read by the run. */
  pages: { url: string; html?: string; file?: string }[];
  /** Passes before the clock (compiling, the heap's first growth), at least one, then passes measured. */
  warm: number;
  passes: number;
}

export interface RunResult {
  /** HTML characters a pass reads. */
  chars: number;
  /** All the process's CPU over the measured passes, a page read. */
  cpuMsPerPage: number;
  /** The median page read's CPU: for one page, the figure this bench gave before it counted every read. */
  medianReadMs: number;
  faultsPerPage: number;
  linksPerPage: number;
  textCharsPerPage: number;
}

const config = await receiveConfig<RunConfig>();
const pages = config.pages.map(({ url, html, file }) => ({ url, html: html ?? readFileSync(file!, 'utf8') }));
const readAll = () => pages.map(({ url, html }) => parseHtml(html, url));
// The last warm pass's readings give the pages' links and text: no pass of its own after the clock.
let read = readAll();
for (let i = 1; i < config.warm; i++) read = readAll();
const samples: number[] = [];
const faults = process.resourceUsage().minorPageFault;
const start = process.cpuUsage();
for (let pass = 0; pass < config.passes; pass++) {
  for (const { url, html } of pages) {
    const read = process.cpuUsage();
    parseHtml(html, url);
    const used = process.cpuUsage(read);
    samples.push((used.user + used.system) / 1000);
  }
}
const used = process.cpuUsage(start);
const faulted = process.resourceUsage().minorPageFault - faults;
samples.sort((a, b) => a - b);
await sendResult({
  chars: pages.reduce((sum, p) => sum + p.html.length, 0),
  cpuMsPerPage: (used.user + used.system) / 1000 / samples.length,
  medianReadMs: percentile(samples, 50),
  faultsPerPage: faulted / samples.length,
  linksPerPage: read.reduce((sum, p) => sum + p.links.length, 0) / pages.length,
  textCharsPerPage: read.reduce((sum, p) => sum + p.text.length, 0) / pages.length,
} satisfies RunResult);
