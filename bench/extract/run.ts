/**
 * bench/extract: pages per second for wvr's page understanding (text + metadata, then + an
 * extraction schema and classification) side by side with @mozilla/readability on a linkedom
 * DOM (main text only), over the same local-web pages in one run.
 *
 *   npx tsx bench/extract/run.ts [pages=600] [rounds=3]
 *
 * Pages are fetched once over HTTP from the local web (products, news articles, docs pages in
 * equal parts) and held in memory: the benchmark measures parsing and extraction, not the network.
 */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { classifyPage, extractHeuristic, parseHtml } from '@wvr/engine';
import { startLocalWeb } from '@wvr/testkit';
import { machine, writeResult } from '../lib/results.js';

const pageCount = Number(process.argv[2] ?? 600);
const rounds = Number(process.argv[3] ?? 3);

const web = await startLocalWeb({ sizes: { products: pageCount, articles: pageCount, docsDepth: 5 } });
const third = Math.ceil(pageCount / 3);
const urls = [...web.truth.productUrls().slice(0, third), ...web.truth.articleUrls().slice(0, third), ...web.truth.docUrls().slice(0, third)].slice(0, pageCount);
const pages: { url: string; html: string }[] = [];
for (const url of urls) pages.push({ url, html: await (await fetch(url)).text() });
await web.close();
const bytes = pages.reduce((sum, p) => sum + Buffer.byteLength(p.html), 0);

const SCHEMA = {
  name: 'The name of the product or the headline',
  price: 'The current price as a number',
  brand: 'The brand of the product',
  author: 'The author of the article',
  published: 'The date it was published',
  sku: 'The SKU of the product',
};

interface Contender {
  name: string;
  what: string;
  run(page: { url: string; html: string }): number;
}

const contenders: Contender[] = [
  { name: 'wvr parseHtml', what: 'main text, markdown, links, metadata, JSON-LD, microdata', run: (p) => parseHtml(p.html, p.url).text.length },
  {
    name: 'wvr parse + schema + classify',
    what: 'the above, a 6-field extraction schema and a document type',
    run: (p) => {
      const page = parseHtml(p.html, p.url);
      const { data } = extractHeuristic({ page, html: p.html }, SCHEMA);
      return page.text.length + Object.keys(data).length + classifyPage(page, p.html).label.length;
    },
  },
  {
    name: '@mozilla/readability (linkedom)',
    what: 'main text and title only',
    run: (p) => {
      const { document } = parseHTML(p.html);
      return new Readability(document as unknown as Document).parse()?.textContent?.length ?? 0;
    },
  },
];

/** How much of Readability's main text wvr's text also has: a check that both read the same content. */
function overlap(): number {
  let shared = 0;
  let total = 0;
  for (const p of pages) {
    const { document } = parseHTML(p.html);
    const theirs = (new Readability(document as unknown as Document).parse()?.textContent ?? '').toLowerCase().match(/\p{L}{3,}/gu) ?? [];
    const ours = new Set(parseHtml(p.html, p.url).text.toLowerCase().match(/\p{L}{3,}/gu) ?? []);
    total += theirs.length;
    shared += theirs.filter((w) => ours.has(w)).length;
  }
  return total === 0 ? 1 : shared / total;
}

const results: { name: string; what: string; pagesPerSecond: number; mbPerSecond: number; bestRoundMs: number }[] = [];
for (const c of contenders) {
  for (const p of pages.slice(0, 20)) c.run(p); // warm-up
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    const start = performance.now();
    let sink = 0;
    for (const p of pages) sink += c.run(p);
    const elapsed = performance.now() - start;
    if (sink < 0) throw new Error('unreachable');
    best = Math.min(best, elapsed);
  }
  results.push({
    name: c.name,
    what: c.what,
    pagesPerSecond: Math.round((pages.length / best) * 1000),
    mbPerSecond: Math.round((bytes / 1024 / 1024 / (best / 1000)) * 10) / 10,
    bestRoundMs: Math.round(best),
  });
  console.log(`${c.name.padEnd(34)} ${String(results.at(-1)!.pagesPerSecond).padStart(6)} pages/s  ${results.at(-1)!.mbPerSecond} MB/s`);
}
const textOverlap = Math.round(overlap() * 1000) / 1000;
console.log(`pages ${pages.length}, ${(bytes / 1024 / 1024).toFixed(1)} MB; Readability words also in wvr text: ${(textOverlap * 100).toFixed(1)}%`);
const file = writeResult('extract', { machine: machine(), pages: pages.length, bytes, rounds, results, readabilityWordsInWvrText: textOverlap });
console.log(`wrote ${file}`);
