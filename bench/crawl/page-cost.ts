/**
 * bench/crawl page cost: CPU of wvr's page reading (`parseHtml`: tree, metadata, links with
 * context and region, main text and markdown) for one synthetic documentation page of 100 KB
 * with 250 links and one of 2 MB with 5,000 links, so the growth with size is read off one run:
 * cost proportional to bytes means the large page costs about 20x the small. With `site=PATH`
 * (a built website, a folder or a .tar.gz; several separated by commas), a real site's pages
 * instead, in bands of size: cost proportional to bytes means the same MB/s in every band.
 *
 * What pages cost is what reading them again and again costs a process: all the CPU of a run of
 * reads (the garbage collector's helper threads included) divided by the reads. The median read
 * would leave out the collections a small page pays for every few dozen reads and a large page at
 * every read. Each run is a process of its own, so one page's garbage is not collected in the
 * other's reads; runs alternate the pages, `rounds` of each, and the figure is the median run.
 * The runs are a bundle of the engine built as the crawl bench's contenders are
 * (page-cost-reader.ts), not its sources through tsx, whose transform made the small page a
 * fifth dearer. Each page's CPU is also split into the kernel's (on a large page, the faults of
 * memory fresh from the system), the reading thread's garbage-collection pauses with the young
 * collections a read, and the rest: where the large page grows faster than the small one.
 *
 * The synthetic pages are read in two places: in the crawl's reader (a worker thread with the heap limits of the
 * engine's page readers, each tree built of the last one's nodes, as a crawl reads its pages), whose growth is the
 * target's, and in place on a main thread with V8's own limits (where the engine reads a page it extracts, searches or
 * maps, and where a crawl reads with one core). A real site's bands are read in the crawl's reader.
 *
 *   pnpm --filter @wvr/bench bench:crawl:page [-- rounds=5] [site=/path/to/site.tar.gz]
 *
 * `NODEARGS` in the environment adds Node flags to every reading process (`--max-semi-space-size=32`, say).
 */
import { statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildEntry } from '../lib/build.js';
import { runWorker } from '../lib/child.js';
import { machine, percentile, writeResult } from '../lib/results.js';
import type { RunConfig, RunResult } from './page-cost-reader.js';
import { siteFiles } from './real-site.js';

/** A Sphinx-like page: a navigation sidebar, nested sections of paragraphs, definition lists and code, links spread through. */
function docPage(bytes: number, links: number): string {
  const nav = Array.from({ length: Math.min(60, links / 4) }, (_, i) => `<li class="toctree-l1"><a href="/nav/${i}.html">Chapter ${i}</a></li>`).join('');
  let body = '';
  let made = 0;
  let section = 0;
  // About 520 bytes of section around 95 bytes per link: spread the links evenly over the sections.
  const content = links - Math.min(60, links / 4) - 1;
  const sections = Math.max(1, (bytes - 95 * content) / 520);
  while (body.length < bytes - 4000) {
    section++;
    const due = Math.min(content, Math.floor((section * content) / sections)) - made;
    const anchors = Array.from({ length: Math.max(0, due) }, () => `<a class="reference internal" href="/api/mod${section}.html#item-${made++}"><code>item_${made}</code></a>`).join(', ');
    body +=
      `<section id="s${section}"><h2>Section ${section}</h2>` +
      `<p>The reader of section ${section} takes a corpus, a tokenizer, and a model; it returns tagged sentences, one per line, with offsets into the source text.</p>` +
      `<dl class="py method"><dt class="sig">method_${section}(self, fileids=None)</dt><dd><p>See ${anchors} for the details of this method, its arguments and what it yields.</p></dd></dl>` +
      `<div class="highlight"><pre>&gt;&gt;&gt; reader.words(fileids=[${section}])\n['The', 'Fulton', 'County', ...]</pre></div></section>`;
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Synthetic reference ${bytes}</title><meta name="description" content="A generated page"></head><body><div class="sphinxsidebar" role="navigation"><ul>${nav}</ul></div><div class="body" role="main">${body}</div><footer><a href="/about.html">About</a></footer></body></html>`;
}

interface Job {
  name: string;
  config: RunConfig;
  runs: RunResult[];
}

const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 50);
const round1 = (n: number) => Math.round(n * 10) / 10;

/** `rounds` runs of every job, the jobs taking turns, each in a fresh process of the built reader. */
async function runAll(jobs: Job[], rounds: number): Promise<void> {
  const reader = await buildEntry(join(dirname(fileURLToPath(import.meta.url)), 'page-cost-reader.ts'));
  const execArgv = process.env.NODEARGS ? process.env.NODEARGS.split(' ') : [];
  for (let round = 0; round < rounds; round++) for (const job of jobs) job.runs.push(await runWorker<RunConfig, RunResult>(reader, job.config, execArgv));
}

/** A job's figures: the median run's CPU a page, and what it says of the pages. */
function summary({ name, config, runs }: Job) {
  const cpuMsPerPage = median(runs.map((r) => r.cpuMsPerPage));
  const { chars, linksPerPage, textCharsPerPage } = runs[0]!;
  const pages = config.pages.length;
  return {
    name,
    pages,
    kbPerPage: Math.round(chars / pages / 1000),
    linksPerPage: Math.round(linksPerPage),
    textCharsPerPage: Math.round(textCharsPerPage),
    cpuMsPerPage: round1(cpuMsPerPage),
    /** Unrounded, for the growth the target judges. */
    cpuMsPerPageExact: cpuMsPerPage,
    cpuMsPerPageRuns: runs.map((r) => round1(r.cpuMsPerPage)),
    medianReadMs: round1(median(runs.map((r) => r.medianReadMs))),
    faultsPerPage: Math.round(median(runs.map((r) => r.faultsPerPage))),
    systemMsPerPage: round1(median(runs.map((r) => r.systemMsPerPage))),
    gcPauseMsPerPage: round1(median(runs.map((r) => r.gcPauseMsPerPage))),
    scavengesPerPage: round1(median(runs.map((r) => r.scavengesPerPage))),
    // What is left of a read's CPU without the kernel's work and the collector's pauses: the readers' own, mostly.
    restMsPerPage: round1(median(runs.map((r) => r.cpuMsPerPage - r.systemMsPerPage - r.gcPauseMsPerPage))),
    mbPerCpuSecond: round1(chars / pages / 1e6 / (cpuMsPerPage / 1000)),
  };
}

/** Where a reading runs: the crawl's reader, whose figure is the target's, and in place on a main thread. */
const PLACES = [
  { where: 'reader', label: "in the crawl's reader" },
  { where: 'main', label: 'in place, on a main thread' },
] as const;

/** The synthetic pages: the large page's cost against the small one's, in each place. */
async function synthetic(rounds: number): Promise<void> {
  const url = 'http://docs.test/api/page.html';
  const small = docPage(100_000, 250);
  const large = docPage(2_000_000, 5_000);
  // About two seconds of reading a run for either page. Warmed by reads, not by bytes: V8 optimises a function by its
  // calls, and a function called once a read (the blocks' join, the content's choice) was compiled on the stack during
  // each of the large page's first reads and thrown away at its end, five of the twelve measured reads after three
  // warm ones. A crawl's reader meets its large pages with code its earlier pages have optimised.
  const jobs: Job[] = PLACES.flatMap(({ where }) => [
    { name: `100 KB / 250 links (${where})`, config: { pages: [{ url, html: small }], warm: 50, passes: 250, where }, runs: [] },
    { name: `2 MB / 5,000 links (${where})`, config: { pages: [{ url, html: large }], warm: 20, passes: 12, where }, runs: [] },
  ]);
  await runAll(jobs, rounds);
  const rows = jobs.map(summary);
  const places = PLACES.map(({ where, label }, i) => {
    const [smallRow, largeRow] = rows.slice(2 * i, 2 * i + 2) as [(typeof rows)[number], (typeof rows)[number]];
    console.log(`${label}:`);
    for (const row of [smallRow, largeRow]) {
      console.log(`  ${row.name}: ${row.kbPerPage} KB, ${row.linksPerPage} links read, ${row.cpuMsPerPage} ms CPU a read (runs: ${row.cpuMsPerPageRuns.join(', ')}; median read ${row.medianReadMs} ms), ${row.faultsPerPage} page faults a read, ${row.mbPerCpuSecond} MB/s`);
      console.log(`    of which the kernel ${row.systemMsPerPage} ms, the collector's pauses ${row.gcPauseMsPerPage} ms (${row.scavengesPerPage} young collections a read), the rest ${row.restMsPerPage} ms`);
    }
    // Judged unrounded: 4.25 and 86.0 ms are 20.2x, where the printed 4.3 and 86.0 would read 20.0x.
    const growth = largeRow.cpuMsPerPageExact / smallRow.cpuMsPerPageExact;
    const growthOfMedianReads = round1(largeRow.medianReadMs / smallRow.medianReadMs);
    const bytesGrowth = round1(largeRow.kbPerPage / smallRow.kbPerPage);
    // The reading's own work, apart from the memory's: where the growth is not in the rest, it is in the collector and the kernel.
    const growthOfRest = round1(largeRow.restMsPerPage / smallRow.restMsPerPage);
    console.log(`  CPU grows ${growth.toFixed(1)}x for ${bytesGrowth}x the bytes; the median reads ${growthOfMedianReads}x; the rest ${growthOfRest}x`);
    return { where, growth, growthOfMedianReads, growthOfRest, bytesGrowth };
  });
  // The target is the crawl's: a crawl reads its pages in the reader (in place only with one core, or while a reader starts).
  const { growth } = places[0]!;
  console.log(`In the crawl's reader the 2 MB page costs ${growth.toFixed(2)}x the 100 KB page (target: at most 20x)`);
  writeResult('crawl-page', { benchmark: 'crawl-page', machine: machine(), rounds, rows, places, growth, target: growth <= 20 });
}

/** Bands of page size, in bytes of HTML: a band holds the pages from its bound up to the next. */
const BANDS = [0, 32_000, 128_000, 512_000];
/** A band's run reads about this much HTML a pass (passes repeat small bands), and at most this many pages. */
const RUN_CHARS = 16_000_000;
const RUN_PAGES = 400;

/** A real site's pages by size: each band's MB/s, and the largest band's against the band of the median page. */
async function realSite(path: string, rounds: number): Promise<void> {
  const site = siteFiles(path);
  try {
    const pages = site.files.map((file) => ({ file, url: `http://docs.test/${relative(site.root, file).split(sep).join('/')}`, size: statSync(file).size }));
    const sizes = pages.map((p) => p.size).sort((a, b) => a - b);
    const medianSize = percentile(sizes, 50);
    const bands = BANDS.map((low, i) => ({ low, high: BANDS[i + 1] ?? Infinity }))
      .map(({ low, high }) => ({ low, high, pages: pages.filter((p) => p.size >= low && p.size < high) }))
      .filter((band) => band.pages.length > 0);
    const jobs: Job[] = bands.map(({ low, high, pages: all }) => {
      // Every k-th page in listing order, when the band has more than a run reads.
      const step = Math.ceil(all.length / RUN_PAGES);
      const picked = all.filter((_, j) => j % step === 0);
      const chars = picked.reduce((sum, p) => sum + p.size, 0);
      const name = high === Infinity ? `${low / 1000} KB and over` : `${low / 1000} to ${high / 1000} KB`;
      return { name, config: { pages: picked.map(({ url, file }) => ({ url, file })), warm: 1, passes: Math.max(1, Math.min(50, Math.round(RUN_CHARS / chars))), where: 'reader' }, runs: [] };
    });
    await runAll(jobs, rounds);
    const rows = jobs.map(summary);
    const typical = rows[bands.findIndex((band) => medianSize >= band.low && medianSize < band.high)]!;
    const largest = rows[rows.length - 1]!;
    const name = path.split('/').pop();
    console.log(`${name}: ${pages.length} pages, the median ${Math.round(medianSize / 1000)} KB`);
    for (const row of rows) {
      console.log(`  ${row.name}: ${row.pages} pages read, ${row.kbPerPage} KB and ${row.linksPerPage} links a page, ${row.cpuMsPerPage} ms CPU a page (runs: ${row.cpuMsPerPageRuns.join(', ')}), ${row.faultsPerPage} page faults a page, ${row.mbPerCpuSecond} MB/s`);
    }
    // Against the band of the median page, and, stricter, against the band whose bytes cost least (where a page's fixed
    // cost is spread over most bytes and its tree still fits the caches).
    const cheapest = rows.reduce((best, row) => (row.mbPerCpuSecond > best.mbPerCpuSecond ? row : best));
    const perByte = { vsMedianBand: round1(typical.mbPerCpuSecond / largest.mbPerCpuSecond), vsCheapestBand: round1(cheapest.mbPerCpuSecond / largest.mbPerCpuSecond) };
    console.log(`  a byte of the largest pages costs ${perByte.vsMedianBand}x a byte of the median page's band (${typical.name}), ${perByte.vsCheapestBand}x one of the cheapest band (${cheapest.name})`);
    writeResult('crawl-page-site', { benchmark: 'crawl-page-site', machine: machine(), site: name, rounds, medianPageBytes: medianSize, rows, medianBand: typical.name, cheapestBand: cheapest.name, largestBandCostPerByte: perByte });
  } finally {
    site.remove();
  }
}

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.split('=') as [string, string]));
const rounds = Number(args.rounds ?? (args.site ? 3 : 5));
if (!args.site) await synthetic(rounds);
else for (const path of args.site.split(',')) await realSite(path, rounds);
