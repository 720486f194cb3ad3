import type Database from 'better-sqlite3';
import { normalizeUrl, type LinkRegion } from '../html/index.js';
import type { crawlFrontier } from '../store/sqlite/tables/crawl.js';
import { priorityOf, REGION_WEIGHTS, type Bucket } from './graph.js';

/** A frontier row with its SQLite rowid, the id the link graph is kept by. */
type Row = typeof crawlFrontier.$inferSelect & { id: number };
export type FrontierRow = Row;

export interface Discovered {
  url: string;
  depth: number;
  bucket: Bucket | 'seed';
  relevance: number;
  anchor: string;
  context: string;
  cash: number;
}

/** The link graph as frontier row ids (SQLite rowids): edge i runs from `from[i]` to `to[i]` with HITS weight `weight[i]`. */
export interface EdgeIds {
  from: number[];
  to: number[];
  weight: number[];
}

const MAX_ANCHORS = 10;
const AUTHORITY_PAGE = 1000;
const SELECTED = 'rowid AS id, url, seq, depth, state, bucket, relevance, cash, history, authority, priority, inlinks, anchors, context';
const COLUMNS = 'url, seq, depth, state, bucket, relevance, cash, history, authority, priority, inlinks, anchors, context';
/** priorityOf as an SQL function, so a relinked URL's priority is rewritten inside the upsert. */
const PRIORITY_FN = 'wvr_frontier_priority';
/** A known URL's cash after one more inlink: OPIC only pays URLs that are still to be fetched. */
const RELINKED_CASH = "CASE WHEN state IN ('queued', 'fetching') THEN cash + excluded.cash ELSE cash END";

/** A row as SQLite returns it: anchors still JSON text. */
interface RawRow extends Omit<Row, 'crawlId' | 'anchors'> {
  anchors: string;
}

/**
 * The persisted frontier of one crawl. Every statement is prepared once per Frontier (a crawl run
 * issues dozens per page, and building and preparing them again each time was most of a crawl's CPU).
 */
export class Frontier {
  private seq: number | undefined;
  private readonly q;

  constructor(
    sqlite: Database.Database,
    private readonly crawlId: string,
    private readonly intent: boolean,
  ) {
    registerPriority(sqlite);
    const p = (source: string) => sqlite.prepare(source);
    this.q = {
      get: p(`SELECT ${SELECTED} FROM crawl_frontier WHERE crawl_id = ? AND url = ?`),
      insert: p(
        `INSERT INTO crawl_frontier (crawl_id, ${COLUMNS}) VALUES (@crawlId, @url, @seq, @depth, @state, @bucket, @relevance, @cash, 0, 0, @priority, @inlinks, @anchors, @context)`,
      ),
      // One statement per discovered link: a new URL is inserted; a known one whose anchors stay as
      // they are gets its inlink, cash, depth and priority here. A new anchor may change its
      // relevance, which only the caller's scorer knows: the WHERE lets that case through untouched.
      upsert: p(
        `INSERT INTO crawl_frontier (crawl_id, ${COLUMNS}) VALUES (@crawlId, @url, @seq, @depth, 'queued', @bucket, @relevance, @cash, 0, 0, @priority, @inlinks, @anchors, @context)
         ON CONFLICT (crawl_id, url) DO UPDATE SET
           inlinks = inlinks + 1,
           cash = ${RELINKED_CASH},
           depth = min(depth, excluded.depth),
           priority = ${PRIORITY_FN}(relevance, ${RELINKED_CASH}, authority, @intent)
         WHERE @anchor = '' OR json_array_length(anchors) >= ${MAX_ANCHORS} OR EXISTS (SELECT 1 FROM json_each(anchors) WHERE value = @anchor)
         RETURNING rowid AS id, seq`,
      ),
      relink: p(
        'UPDATE crawl_frontier SET inlinks = inlinks + 1, anchors = @anchors, cash = @cash, relevance = @relevance, depth = @depth, priority = @priority WHERE crawl_id = @crawlId AND url = @url',
      ),
      requeue: p("UPDATE crawl_frontier SET state = 'queued' WHERE crawl_id = ? AND state = 'fetching'"),
      addEdge: p('INSERT INTO crawl_edges (crawl_id, from_url, to_url, region) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING'),
      takeBucket: p(`SELECT ${SELECTED} FROM crawl_frontier WHERE crawl_id = ? AND state = 'queued' AND bucket = ? ORDER BY priority DESC, seq ASC LIMIT 1`),
      takeBreadth: p(`SELECT ${SELECTED} FROM crawl_frontier WHERE crawl_id = ? AND state = 'queued' ORDER BY depth ASC, seq ASC LIMIT 1`),
      setState: p('UPDATE crawl_frontier SET state = ? WHERE crawl_id = ? AND url = ?'),
      bank: p("UPDATE crawl_frontier SET history = history + cash, cash = 0, state = 'done' WHERE crawl_id = ? AND url = ?"),
      counts: p('SELECT bucket, state, count(*) AS n FROM crawl_frontier WHERE crawl_id = ? GROUP BY bucket, state'),
      queuedPage: p("SELECT rowid AS id, relevance, cash, authority FROM crawl_frontier WHERE crawl_id = ? AND state = 'queued' AND rowid > ? ORDER BY rowid LIMIT ?"),
      setAuthority: p('UPDATE crawl_frontier SET authority = ?, priority = ? WHERE rowid = ?'),
      mass: p('SELECT sum(history + cash) FROM crawl_frontier WHERE crawl_id = ?').pluck(),
      edgeIds: p(
        `SELECT f.rowid, t.rowid, e.region FROM crawl_edges e
           JOIN crawl_frontier f ON f.crawl_id = e.crawl_id AND f.url = e.from_url
           JOIN crawl_frontier t ON t.crawl_id = e.crawl_id AND t.url = e.to_url
         WHERE e.crawl_id = ?`,
      ).raw(),
      totals: p(
        "SELECT count(*) AS nodes, count(*) FILTER (WHERE state = 'done') AS fetched, coalesce(sum(history + cash) FILTER (WHERE state = 'done'), 0) AS banked FROM crawl_frontier WHERE crawl_id = ? AND state NOT IN ('duplicate', 'seen')",
      ),
      top: p(
        "SELECT url, history + cash AS weight, inlinks FROM crawl_frontier WHERE crawl_id = ? AND state NOT IN ('duplicate', 'seen') ORDER BY weight DESC, url ASC LIMIT ?",
      ),
      urlOf: p('SELECT url FROM crawl_frontier WHERE rowid = ?').pluck(),
      urls: p('SELECT rowid, url FROM crawl_frontier WHERE crawl_id = ?').raw(),
      maxSeq: p('SELECT max(seq) FROM crawl_frontier WHERE crawl_id = ?').pluck(),
    };
  }

  get(url: string): Row | undefined {
    const raw = this.q.get.get(this.crawlId, url) as RawRow | undefined;
    return raw ? this.row(raw) : undefined;
  }

  /** The seeds share OPIC's initial cash of 1; they are fetched first whatever the strategy. */
  seed(urls: readonly string[]): void {
    const seeds = [...new Set(urls.map((u) => normalizeUrl(u)).filter((u): u is string => u !== null))];
    for (const url of seeds) {
      this.discover({ url, depth: 0, bucket: 'seed', relevance: 1, anchor: '', context: '', cash: 1 / seeds.length }, () => 1);
    }
  }

  /** URLs the caller has already seen (a session's filter_seen_urls): known to the graph, never fetched. */
  markSeen(urls: readonly string[]): void {
    for (const raw of urls) {
      const url = normalizeUrl(raw);
      if (!url || this.get(url)) continue;
      this.insert({ url, depth: 0, state: 'seen', bucket: 'detail', relevance: 0, cash: 0, inlinks: 0, anchors: [], context: '', priority: 0 });
    }
  }

  /** URLs claimed by a run that died are fetched again: their documents were never written. */
  requeueInFlight(): void {
    this.q.requeue.run(this.crawlId);
  }

  /** New URL: queued. Known URL: one more inlink, its anchor, OPIC cash and a fresh priority. The URL's row id either way. */
  discover(d: Discovered, rescore: (anchors: string[], context: string) => number): number {
    const seq = this.nextSeq();
    const done = this.q.upsert.get({
      crawlId: this.crawlId,
      url: d.url,
      seq,
      depth: d.depth,
      bucket: d.bucket,
      relevance: d.relevance,
      cash: d.cash,
      priority: priorityOf({ relevance: d.relevance, cash: d.cash, authority: 0, intent: this.intent }),
      inlinks: d.bucket === 'seed' ? 0 : 1,
      anchors: JSON.stringify(d.anchor ? [d.anchor] : []),
      context: d.context,
      anchor: d.anchor,
      intent: this.intent ? 1 : 0,
    }) as { id: number; seq: number } | undefined;
    if (done?.seq === seq) return done.id;
    // The URL was known: it keeps its place in discovery order.
    this.seq = seq - 1;
    if (done) return done.id;
    const existing = this.get(d.url)!;
    const anchors = d.anchor && !existing.anchors.includes(d.anchor) && existing.anchors.length < MAX_ANCHORS ? [...existing.anchors, d.anchor] : existing.anchors;
    const cash = existing.state === 'queued' || existing.state === 'fetching' ? existing.cash + d.cash : existing.cash;
    const relevance = anchors !== existing.anchors ? Math.max(existing.relevance, rescore(anchors, existing.context)) : existing.relevance;
    this.q.relink.run({
      crawlId: this.crawlId,
      url: d.url,
      anchors: JSON.stringify(anchors),
      cash,
      relevance,
      // A shallower path found later lets the URL's own links go deeper within max_depth.
      depth: Math.min(existing.depth, d.depth),
      priority: priorityOf({ relevance, cash, authority: existing.authority, intent: this.intent }),
    });
    return existing.id;
  }

  /** Stores a link once with where it sat on the page, so a resumed run rebuilds the same weighted graph. */
  addEdge(from: string, to: string, region: LinkRegion): boolean {
    return this.q.addEdge.run(this.crawlId, from, to, region).changes > 0;
  }

  /** The best queued URL of a bucket (smart) or the shallowest, oldest one (breadth-first), claimed for fetching. */
  take(order: { bucket: Row['bucket'] } | 'breadth_first'): Row | undefined {
    const raw = (order === 'breadth_first' ? this.q.takeBreadth.get(this.crawlId) : this.q.takeBucket.get(this.crawlId, order.bucket)) as RawRow | undefined;
    if (!raw) return undefined;
    this.setState(raw.url, 'fetching');
    return this.row({ ...raw, state: 'fetching' });
  }

  setState(url: string, state: Row['state']): void {
    this.q.setState.run(state, this.crawlId, url);
  }

  /** OPIC: the fetched page banks its cash into its history; the caller hands the cash on to its links. */
  bankCash(url: string): number {
    const row = this.get(url);
    if (!row) return 0;
    this.q.bank.run(this.crawlId, url);
    return row.cash;
  }

  /** Marks a URL as already covered (a redirect target or a canonical) so it is never fetched on its own. */
  markCovered(url: string, depth: number): void {
    const existing = this.get(url);
    if (existing) {
      if (existing.state === 'queued') this.setState(url, 'duplicate');
      return;
    }
    this.insert({ url, depth, state: 'duplicate', bucket: 'detail', relevance: 0, cash: 0, inlinks: 0, anchors: [], context: '', priority: 0 });
  }

  countsByBucket(states: Row['state'][]): Record<Row['bucket'], number> {
    const counts: Record<Row['bucket'], number> = { seed: 0, hub: 0, detail: 0, explore: 0 };
    for (const r of this.q.counts.all(this.crawlId) as { bucket: Row['bucket']; state: Row['state']; n: number }[]) {
      if (states.includes(r.state)) counts[r.bucket] += r.n;
    }
    return counts;
  }

  /**
   * HITS refresh: a queued URL's authority estimate (by frontier row id, as `edgeIds` numbers them)
   * lifts its priority. Pages through the queue so memory stays bounded; writes only what changed.
   */
  applyAuthority(authorityOf: (rowId: number) => number): void {
    let after = 0;
    for (;;) {
      const queued = this.q.queuedPage.all(this.crawlId, after, AUTHORITY_PAGE) as { id: number; relevance: number; cash: number; authority: number }[];
      if (queued.length === 0) return;
      after = queued[queued.length - 1]!.id;
      for (const row of queued) {
        const authority = authorityOf(row.id);
        if (authority === row.authority) continue;
        this.q.setAuthority.run(authority, priorityOf({ relevance: row.relevance, cash: row.cash, authority, intent: this.intent }), row.id);
      }
    }
  }

  /** OPIC's total: all the cash banked (history) and still held; a page's importance is its share of it. */
  mass(): number {
    return (this.q.mass.get(this.crawlId) as number | null) ?? 0;
  }

  /** The discovered links as pairs of row ids with their region's weight: a few bytes per edge, however long the URLs. */
  edgeIds(): EdgeIds {
    const from: number[] = [];
    const to: number[] = [];
    const weight: number[] = [];
    for (const [f, t, region] of this.q.edgeIds.iterate(this.crawlId) as IterableIterator<[number, number, LinkRegion]>) {
      from.push(f);
      to.push(t);
      weight.push(REGION_WEIGHTS[region]);
    }
    return { from, to, weight };
  }

  /** The graph's nodes (URLs neither covered nor seen before), how many were fetched, and the OPIC weight they banked. */
  totals(): { nodes: number; fetched: number; banked: number } {
    return this.q.totals.get(this.crawlId) as { nodes: number; fetched: number; banked: number };
  }

  /** The heaviest nodes by OPIC weight (history + cash); importance is weight over mass. */
  heaviest(limit: number): { url: string; weight: number; inlinks: number }[] {
    return this.q.top.all(this.crawlId, limit) as { url: string; weight: number; inlinks: number }[];
  }

  urlOf(rowId: number): string | undefined {
    return this.q.urlOf.get(rowId) as string | undefined;
  }

  /** Every URL with its row id, streamed: nothing but the current row is held. */
  *urls(): Generator<[number, string]> {
    yield* this.q.urls.iterate(this.crawlId) as IterableIterator<[number, string]>;
  }

  private insert(r: Omit<Row, 'id' | 'crawlId' | 'seq' | 'history' | 'authority'>): number {
    return Number(this.q.insert.run({ ...r, crawlId: this.crawlId, seq: this.nextSeq(), anchors: JSON.stringify(r.anchors) }).lastInsertRowid);
  }

  private row(raw: RawRow): Row {
    return { ...raw, crawlId: this.crawlId, anchors: JSON.parse(raw.anchors) as string[] };
  }

  /** Discovery order; one runner owns a crawl at a time (the job lease), so the counter lives here. */
  private nextSeq(): number {
    if (this.seq === undefined) this.seq = (this.q.maxSeq.get(this.crawlId) as number | null) ?? 0;
    this.seq += 1;
    return this.seq;
  }
}

/** Once per connection: every Frontier on it shares the one pure function. */
function registerPriority(sqlite: Database.Database): void {
  const known = sqlite.prepare('SELECT 1 FROM pragma_function_list WHERE name = ?').pluck().get(PRIORITY_FN);
  if (known) return;
  sqlite.function(PRIORITY_FN, { deterministic: true }, (relevance, cash, authority, intent) =>
    priorityOf({ relevance: Number(relevance), cash: Number(cash), authority: Number(authority), intent: intent === 1 }),
  );
}
