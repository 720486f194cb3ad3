/**
 * bench/crawl page cost: CPU of wvr's page reading (`parseHtml`: tree, metadata, links with
 * context and region, main text and markdown) for one synthetic documentation page of 100 KB
 * with 250 links and one of 2 MB with 5,000 links, in alternating rounds, so the growth with size
 * is read off one run: cost proportional to bytes means the large page costs about 20x the small.
 *
 *   pnpm --filter @wvr/bench bench:crawl:page [-- rounds=5]
 */
import { parseHtml } from '@wvr/engine';
import { machine, writeResult } from '../lib/results.js';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.split('=') as [string, string]));
const rounds = Number(args.rounds ?? 5);

/** A Sphinx-like page: a navigation sidebar, nested sections of paragraphs, definition lists and code, links spread through. */
export function docPage(bytes: number, links: number): string {
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

function cpuMs(fn: () => void): number {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

const pages = [
  { name: '100 KB / 250 links', bytes: 100_000, links: 250 },
  { name: '2 MB / 5,000 links', bytes: 2_000_000, links: 5_000 },
].map((row) => ({ ...row, html: docPage(row.bytes, row.links), samples: [] as number[] }));
const URL = 'http://docs.test/api/page.html';
for (const page of pages) parseHtml(page.html, URL);
// Rounds alternate the pages, so both are measured in the same state of the process (its compiled code, its heap):
// measured one after the other, the small page's figure moved by half between runs of one build. The small page is
// read five times a round: its figure is the divisor.
for (let round = 0; round < rounds; round++) {
  for (const page of pages) for (let i = 0; i < (page.bytes < 1e6 ? 5 : 1); i++) page.samples.push(cpuMs(() => parseHtml(page.html, URL)));
}
const rows = pages.map(({ html, samples, ...row }) => {
  const page = parseHtml(html, URL);
  samples.sort((a, b) => a - b);
  const ms = samples[Math.floor(samples.length / 2)]!;
  const result = { ...row, actualBytes: html.length, linksRead: page.links.length, textChars: page.text.length, cpuMsMedian: Math.round(ms * 10) / 10, mbPerCpuSecond: Math.round((html.length / 1e6 / (ms / 1000)) * 10) / 10 };
  console.log(`${row.name}: ${(html.length / 1e6).toFixed(2)} MB, ${page.links.length} links read, ${result.cpuMsMedian} ms CPU (median of ${samples.length}), ${result.mbPerCpuSecond} MB/s`);
  return result;
});
const growth = Math.round((rows[1]!.cpuMsMedian / rows[0]!.cpuMsMedian) * 10) / 10;
const bytesGrowth = Math.round((rows[1]!.actualBytes / rows[0]!.actualBytes) * 10) / 10;
console.log(`CPU grows ${growth}x for ${bytesGrowth}x the bytes (target: at most 20x)`);
writeResult('crawl-page', { benchmark: 'crawl-page', machine: machine(), rounds, rows, growth, bytesGrowth, target: growth <= 20 });
