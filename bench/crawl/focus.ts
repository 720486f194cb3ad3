/**
 * Intent focus: with an intent, what share of the pages a crawl fetches are relevant (precision),
 * and how much of the relevant set a fixed budget reaches (recall), on real built sites and on the
 * local catalogue. Each (site, intent, budget) is crawled from the site's root through the engine
 * API, in the same run: wvr smart with the intent, wvr smart without it (graph order only) and
 * breadth-first without it (the baseline).
 *
 * The relevant sets are URL rules written from each site's file names (its table of contents),
 * chosen before looking at what any crawler fetched; see PG and NLTK below and bench/README.md.
 *
 *   pnpm --filter @wvr/bench bench:crawl:focus -- pg=/path/postgresql-11-docs.tar.gz nltk=/path/nltk.org.tar.gz
 *
 * Options: `budgets=50,100`, `depth=10`, `only=pg,nltk,catalogue`. Results: `.results/crawl-focus-*.json`,
 * with every fetched URL, its bucket and its relevance when queued. Nothing of the sites is in the repository.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, type SqliteStore } from '@wvr/engine';
import { startLocalWeb } from '@wvr/testkit';
import { machine, writeResult } from '../lib/results.js';
import { serveSite } from './real-site.js';

const args = Object.fromEntries(process.argv.slice(2).filter((a) => a.includes('=')).map((a) => a.split(/=(.*)/s).slice(0, 2) as [string, string]));
const budgets = (args.budgets ?? '50,100').split(',').map(Number);
const depth = Number(args.depth ?? 10);
const only = new Set((args.only ?? 'pg,nltk,catalogue').split(','));

interface Target {
  name: string;
  intent: string;
  /** How the relevant set was chosen, for the report. */
  rule: string;
  relevant: (path: string) => boolean;
}

/**
 * Relevant sets by URL, from the sites' structure. PostgreSQL 11 manual (flat, one file per section):
 * chapter 26 "High Availability, Load Balancing, and Replication" (high-availability,
 * different-replication-solutions, warm-standby, warm-standby-failover, hot-standby), chapter 27
 * "Recovery Configuration" (recovery-config, archive-recovery-settings, recovery-target-settings,
 * standby-settings), chapter 30 "Reliability and the Write-Ahead Log" (wal, wal-*), chapter 31
 * "Logical Replication" (logical-replication*), the server configuration sections on WAL and
 * replication (runtime-config-wal, runtime-config-replication) and WAL archiving
 * (continuous-archiving). Not included: logical decoding (a server-programming chapter), the
 * replication protocol, the client tools' reference pages.
 *
 * NLTK: the nltk.tokenize and nltk.stem API pages (api/nltk.tokenize*, api/nltk.stem*), their
 * module sources (_modules/nltk/tokenize*, _modules/nltk/stem/*), the two howtos
 * (howto/tokenize, howto/stem) and the book's chapter 3 "Processing Raw Text" (its sections on
 * tokenizing and normalizing/stemming), both editions. Not included: unit tests, other modules
 * that merely take tokens.
 */
const PG: Target = {
  name: 'postgresql-11-docs',
  intent: 'how to configure replication and write-ahead logging (WAL)',
  rule: 'ch. 26 high availability/replication, ch. 27 recovery configuration, ch. 30 WAL, ch. 31 logical replication, runtime-config-wal/-replication, continuous-archiving',
  relevant: (p) =>
    /^\/(high-availability|different-replication-solutions|warm-standby|warm-standby-failover|hot-standby|recovery-config|archive-recovery-settings|recovery-target-settings|standby-settings|wal|wal-[a-z-]+|logical-replication(-[a-z-]+)?|runtime-config-wal|runtime-config-replication|continuous-archiving)\.html$/.test(p),
};

const NLTK: Target = {
  name: 'nltk.org',
  intent: 'tokenizing and stemming text',
  rule: 'api/nltk.tokenize*, api/nltk.stem*, _modules/nltk/tokenize*, _modules/nltk/stem/*, howto/tokenize, howto/stem, book(_1ed)/ch03',
  relevant: (p) =>
    /^\/api\/nltk\.(tokenize|stem)(\.[^/]*)?\.html$/.test(p) ||
    /^\/_modules\/nltk\/(tokenize|stem)(\/[^/]+)?\.html$/.test(p) ||
    /^\/howto\/(tokenize|stem)\.html$/.test(p) ||
    /^\/book(_1ed)?\/ch03\.html$/.test(p),
};

type Strategy = 'smart' | 'breadth_first';
interface Contender {
  label: string;
  strategy: Strategy;
  withIntent: boolean;
}
const CONTENDERS: Contender[] = [
  { label: 'smart+intent', strategy: 'smart', withIntent: true },
  { label: 'smart', strategy: 'smart', withIntent: false },
  { label: 'breadth-first', strategy: 'breadth_first', withIntent: false },
];

interface Row {
  site: string;
  intent: string;
  budget: number;
  contender: string;
  fetched: number;
  relevantFetched: number;
  relevantTotal: number;
  precision: number;
  recall: number;
  /** Fetched pages per smart-crawl bucket (seed, hub, detail, explore); breadth-first has none. */
  buckets: Record<string, number>;
  seconds: number;
  /** The fetched pages' paths in discovery order (the documents' order), relevant ones marked with '*', with [bucket relevance]. */
  fetchedPaths: string[];
}

async function crawl(seed: string, budget: number, c: Contender, intent: string, pagination: boolean): Promise<{ urls: string[]; buckets: string[]; seconds: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'wvr-bench-focus-'));
  const engine = createEngine({ dbPath: join(dir, 'wvr.db'), secret: 'bench', allowPrivateNetwork: true, fetchLimits: { perHostConcurrency: 2 } });
  try {
    const user = await engine.accounts.ensureUser({ email: 'bench@x.test' });
    await engine.credits.grant(user.id, budget * 10);
    const principal = engine.accounts.localPrincipal(user);
    const body = {
      urls: [seed],
      max_pages: budget,
      expansion: 'internal',
      ...(c.withIntent ? { intent } : {}),
      link_extraction_config: { max_depth: depth, ...(pagination ? { detect_pagination: true } : {}) },
    };
    const started = performance.now();
    const created = await engine.crawls.create(principal, body, { strategy: c.strategy });
    if (!('id' in created)) throw new Error('dry run');
    await engine.jobs.drain();
    const seconds = (performance.now() - started) / 1000;
    const detail = await engine.crawls.get(principal, created.id);
    // Which budget bucket each fetched page came from (smart crawl's 30/60/10 split) and its relevance when queued.
    const rows = (engine.context.store as SqliteStore).sqlite
      .prepare(`select url, bucket, relevance from crawl_frontier where crawl_id = ?`)
      .all(created.id) as { url: string; bucket: string; relevance: number }[];
    const byUrl = new Map(rows.map((r) => [r.url, r]));
    const urls = detail.documents.map((d) => d.url);
    return { urls, buckets: urls.map((u) => { const r = byUrl.get(u); return r ? `${r.bucket} ${r.relevance.toFixed(2)}` : '?'; }), seconds };
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measure(site: string, seed: string, intent: string, isRelevant: (url: string) => boolean, relevantTotal: number, pagination: boolean): Promise<Row[]> {
  const rows: Row[] = [];
  for (const budget of budgets) {
    for (const c of CONTENDERS) {
      const { urls, buckets, seconds } = await crawl(seed, budget, c, intent, pagination);
      const hits = urls.map(isRelevant);
      const relevantFetched = hits.filter(Boolean).length;
      const tally: Record<string, number> = {};
      if (c.strategy === 'smart') for (const b of buckets) tally[b.split(' ')[0]!] = (tally[b.split(' ')[0]!] ?? 0) + 1;
      const row: Row = {
        site,
        intent,
        budget,
        contender: c.label,
        fetched: urls.length,
        relevantFetched,
        relevantTotal,
        precision: urls.length ? relevantFetched / urls.length : 0,
        recall: relevantTotal ? relevantFetched / relevantTotal : 0,
        buckets: tally,
        seconds: Math.round(seconds * 10) / 10,
        fetchedPaths: urls.map((u, i) => `${hits[i] ? '*' : ''}${new URL(u).pathname} [${buckets[i]}]`),
      };
      rows.push(row);
      console.log(
        `${site} ${budget} ${c.label.padEnd(14)} fetched ${String(urls.length).padStart(3)}  relevant ${String(relevantFetched).padStart(3)}/${relevantTotal}  precision ${row.precision.toFixed(3)}  recall ${row.recall.toFixed(3)}  ${Object.entries(tally).map(([k, v]) => `${k} ${v}`).join(', ')}`,
      );
    }
  }
  return rows;
}

const env = machine();
console.log(`load average ${env.loadAverage1m}, ${env.cpus} cores, ${env.node}`);
const rows: Row[] = [];
const sites: { target: Target; path: string | undefined }[] = [
  { target: PG, path: args.pg },
  { target: NLTK, path: args.nltk },
];
for (const { target, path } of sites) {
  const key = target === PG ? 'pg' : 'nltk';
  if (!only.has(key)) continue;
  if (!path) {
    console.log(`${target.name}: skipped (pass ${key}=PATH to the site's folder or .tar.gz)`);
    continue;
  }
  const site = await serveSite(path);
  try {
    const pathOf = (url: string) => decodeURIComponent(new URL(url).pathname);
    const relevantTotal = site.pages.filter((u) => target.relevant(pathOf(u))).length;
    console.log(`${target.name}: ${site.pages.length} pages, ${relevantTotal} relevant (${target.rule})`);
    rows.push(...(await measure(target.name, `${site.origin}/`, target.intent, (u) => target.relevant(pathOf(u)), relevantTotal, false)));
  } finally {
    await site.close();
  }
}
if (only.has('catalogue')) {
  const web = await startLocalWeb({ sizes: { products: 2000 } });
  try {
    const category = web.truth.categories.find((c) => c.slug === 'headphones')!;
    const relevant = new Set(web.truth.relevantUrls(category.slug));
    console.log(`catalogue: 2,000 products, ${relevant.size} relevant (the headphones category's products)`);
    rows.push(...(await measure('catalogue', `${web.catalogue}/`, category.intent, (u) => relevant.has(u), relevant.size, true)));
  } finally {
    await web.close();
  }
}
const loadAfter = machine().loadAverage1m;
console.log(`load average after ${loadAfter}`);
console.log(writeResult('crawl-focus', { machine: env, loadAverageAfter: loadAfter, budgets, depth, rows }));
