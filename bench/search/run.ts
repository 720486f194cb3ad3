/**
 * bench/search: indexes local-web catalogue pages into wvr's FTS5 index and into MiniSearch
 * (in-memory BM25) in the same run, then times the same quick-search queries against both.
 *
 *   npx tsx bench/search/run.ts [documents=100000] [queries=1000]
 *
 * Documents are the catalogue pages of the local web built from its generators (the text
 * its product pages serve), not fetched over HTTP: the benchmark measures the index.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import MiniSearch from 'minisearch';
import { createEngine, seededRandom } from '@wvr/engine';
import { startLocalWeb } from '@wvr/testkit';

const documents = Number(process.argv[2] ?? 100_000);
const queryCount = Number(process.argv[3] ?? 1_000);

interface Doc {
  id: number;
  url: string;
  title: string;
  headings: string;
  text: string;
  urlTokens: string;
  anchors: string;
}

const web = await startLocalWeb({ sizes: { products: documents } });
const catalogue = web.truth.models.catalogue();
const docs: Doc[] = [];
for (let id = 1; id <= documents; id++) {
  const p = catalogue.product(id);
  if (!p) continue;
  docs.push({
    id,
    url: web.catalogue + p.path,
    title: p.name,
    headings: `${p.name}\n${p.category}`,
    text: `${p.description} Brand ${p.brand}. ${p.priceText}.`,
    urlTokens: p.path.replace(/[^a-z0-9]+/gi, ' '),
    anchors: p.name,
  });
}
await web.close();

const dir = mkdtempSync(join(tmpdir(), 'wvr-bench-search-'));
const engine = createEngine({ dbPath: join(dir, 'wvr.db'), secret: 'bench' });
const user = await engine.accounts.ensureUser({ email: 'bench@x.test' });
await engine.credits.grant(user.id, queryCount * 2 + 100);
const principal = engine.accounts.localPrincipal(user);

// One upsert per page, as the crawler calls it.
let t0 = performance.now();
for (const d of docs) {
  await engine.search.index.upsert({
    url: d.url,
    title: d.title,
    headings: d.headings.split('\n'),
    text: d.text,
    anchorTexts: [d.anchors],
    ownerUserId: null,
    fetchedAt: 0,
  });
}
const wvrIndexMs = performance.now() - t0;

const mini = new MiniSearch<Doc>({
  fields: ['title', 'headings', 'text', 'urlTokens', 'anchors'],
  storeFields: ['url', 'title'],
  searchOptions: { boost: { title: 10, anchors: 5, headings: 4, urlTokens: 3, text: 1 } },
});
t0 = performance.now();
mini.addAll(docs);
const miniIndexMs = performance.now() - t0;

// Queries: two words of a random product's name, so every query has matches.
const random = seededRandom(7);
const queries = Array.from({ length: queryCount }, () => {
  const words = docs[Math.floor(random.float() * docs.length)]!.title.split(/\s+/);
  const start = Math.floor(random.float() * Math.max(1, words.length - 1));
  return words.slice(start, start + 2).join(' ');
});

const visibility = await engine.search.visibility(principal);
const time = async (fn: (q: string) => unknown) => {
  for (const q of queries.slice(0, 50)) await fn(q); // warm-up
  const samples: number[] = [];
  for (const q of queries) {
    const s = performance.now();
    await fn(q);
    samples.push(performance.now() - s);
  }
  samples.sort((a, b) => a - b);
  const at = (p: number) => samples[Math.min(samples.length - 1, Math.floor(p * samples.length))]!;
  return { p50: at(0.5), p99: at(0.99), mean: samples.reduce((a, b) => a + b, 0) / samples.length };
};

const wvrIndex = await time((q) => engine.search.index.search({ query: q, limit: 10, visibility }));
const wvrQuick = await time((q) => engine.search.quick(principal, { query: q, max_results: 10 }));
const miniSearch = await time((q) => mini.search(q).slice(0, 10));

await engine.close();
rmSync(dir, { recursive: true, force: true });

const f = (n: number) => n.toFixed(2);
const rate = (ms: number) => Math.round(docs.length / (ms / 1000)).toLocaleString('en');
console.log(JSON.stringify({ documents: docs.length, queries: queryCount, wvrIndexMs, miniIndexMs, wvrIndex, wvrQuick, miniSearch }, null, 2));
console.log(`
Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}. ${docs.length.toLocaleString('en')} documents, ${queryCount} queries.

| | Indexing (docs/s) | p50 (ms) | p99 (ms) | mean (ms) |
|---|---|---|---|---|
| wvr FTS5 index, \`index.search\` | ${rate(wvrIndexMs)} | ${f(wvrIndex.p50)} | ${f(wvrIndex.p99)} | ${f(wvrIndex.mean)} |
| wvr quick search, \`engine.search.quick\` (credit charge included) | (same index) | ${f(wvrQuick.p50)} | ${f(wvrQuick.p99)} | ${f(wvrQuick.mean)} |
| MiniSearch 7 (in memory) | ${rate(miniIndexMs)} | ${f(miniSearch.p50)} | ${f(miniSearch.p99)} | ${f(miniSearch.mean)} |
`);
