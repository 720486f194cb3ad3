import { and, asc, desc, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { normalizeUrl } from '../html/index.js';
import { crawlEdges, crawlFrontier } from './tables.js';
import { priorityOf, type Bucket } from './graph.js';

type Row = typeof crawlFrontier.$inferSelect;
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

const MAX_ANCHORS = 10;
const AUTHORITY_PAGE = 1000;

/** The persisted frontier of one crawl; every method is one or two indexed statements. */
export class Frontier {
  private seq: number | undefined;

  constructor(
    private readonly db: Db,
    private readonly crawlId: string,
    private readonly intent: boolean,
  ) {}

  get(url: string): Row | undefined {
    return this.db.select().from(crawlFrontier).where(and(eq(crawlFrontier.crawlId, this.crawlId), eq(crawlFrontier.url, url))).get();
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
      this.db
        .insert(crawlFrontier)
        .values({ crawlId: this.crawlId, url, seq: this.nextSeq(), depth: 0, state: 'seen', bucket: 'detail', anchors: [], context: '' })
        .run();
    }
  }

  /** URLs claimed by a run that died are fetched again: their documents were never written. */
  requeueInFlight(): void {
    this.db
      .update(crawlFrontier)
      .set({ state: 'queued' })
      .where(and(eq(crawlFrontier.crawlId, this.crawlId), eq(crawlFrontier.state, 'fetching')))
      .run();
  }

  /** New URL: queued. Known URL: one more inlink, its anchor, OPIC cash and a fresh priority. */
  discover(d: Discovered, rescore: (anchors: string[], context: string) => number): 'new' | 'known' {
    const existing = this.get(d.url);
    if (!existing) {
      const seq = this.nextSeq();
      const anchors = d.anchor ? [d.anchor] : [];
      this.db
        .insert(crawlFrontier)
        .values({
          crawlId: this.crawlId,
          url: d.url,
          seq,
          depth: d.depth,
          state: 'queued',
          bucket: d.bucket,
          relevance: d.relevance,
          cash: d.cash,
          inlinks: d.bucket === 'seed' ? 0 : 1,
          anchors,
          context: d.context,
          priority: priorityOf({ relevance: d.relevance, cash: d.cash, authority: 0, intent: this.intent }),
        })
        .run();
      return 'new';
    }
    const anchors = d.anchor && !existing.anchors.includes(d.anchor) && existing.anchors.length < MAX_ANCHORS ? [...existing.anchors, d.anchor] : existing.anchors;
    const cash = existing.state === 'queued' || existing.state === 'fetching' ? existing.cash + d.cash : existing.cash;
    const relevance = anchors !== existing.anchors ? Math.max(existing.relevance, rescore(anchors, existing.context)) : existing.relevance;
    this.db
      .update(crawlFrontier)
      .set({
        inlinks: existing.inlinks + 1,
        anchors,
        cash,
        relevance,
        // A shallower path found later lets the URL's own links go deeper within max_depth.
        depth: Math.min(existing.depth, d.depth),
        priority: priorityOf({ relevance, cash, authority: existing.authority, intent: this.intent }),
      })
      .where(and(eq(crawlFrontier.crawlId, this.crawlId), eq(crawlFrontier.url, d.url)))
      .run();
    return 'known';
  }

  addEdge(from: string, to: string): boolean {
    const result = this.db.insert(crawlEdges).values({ crawlId: this.crawlId, fromUrl: from, toUrl: to }).onConflictDoNothing().run();
    return result.changes > 0;
  }

  /** Buckets that have URLs waiting. */
  availableBuckets(): Set<Row['bucket']> {
    return new Set(
      this.db
        .selectDistinct({ bucket: crawlFrontier.bucket })
        .from(crawlFrontier)
        .where(and(eq(crawlFrontier.crawlId, this.crawlId), eq(crawlFrontier.state, 'queued')))
        .all()
        .map((r) => r.bucket),
    );
  }

  /** The best queued URL of a bucket (smart) or the shallowest, oldest one (breadth-first), claimed for fetching. */
  take(order: { bucket: Row['bucket'] } | 'breadth_first'): Row | undefined {
    const where = and(
      eq(crawlFrontier.crawlId, this.crawlId),
      eq(crawlFrontier.state, 'queued'),
      order === 'breadth_first' ? undefined : eq(crawlFrontier.bucket, order.bucket),
    );
    const row = this.db
      .select()
      .from(crawlFrontier)
      .where(where)
      .orderBy(...(order === 'breadth_first' ? [asc(crawlFrontier.depth), asc(crawlFrontier.seq)] : [desc(crawlFrontier.priority), asc(crawlFrontier.seq)]))
      .limit(1)
      .get();
    if (!row) return undefined;
    this.setState(row.url, 'fetching');
    return { ...row, state: 'fetching' };
  }

  setState(url: string, state: Row['state']): void {
    this.db
      .update(crawlFrontier)
      .set({ state })
      .where(and(eq(crawlFrontier.crawlId, this.crawlId), eq(crawlFrontier.url, url)))
      .run();
  }

  /** OPIC: the fetched page banks its cash into its history; the caller hands the cash on to its links. */
  bankCash(url: string): number {
    const row = this.get(url);
    if (!row) return 0;
    this.db
      .update(crawlFrontier)
      .set({ history: row.history + row.cash, cash: 0, state: 'done' })
      .where(and(eq(crawlFrontier.crawlId, this.crawlId), eq(crawlFrontier.url, url)))
      .run();
    return row.cash;
  }

  /** Marks a URL as already covered (a redirect target or a canonical) so it is never fetched on its own. */
  markCovered(url: string, depth: number): void {
    const existing = this.get(url);
    if (existing) {
      if (existing.state === 'queued') this.setState(url, 'duplicate');
      return;
    }
    this.db
      .insert(crawlFrontier)
      .values({ crawlId: this.crawlId, url, seq: this.nextSeq(), depth, state: 'duplicate', bucket: 'detail', anchors: [], context: '' })
      .run();
  }

  countsByBucket(states: Row['state'][]): Record<Row['bucket'], number> {
    const counts: Record<Row['bucket'], number> = { seed: 0, hub: 0, detail: 0, explore: 0 };
    const rows = this.db
      .select({ bucket: crawlFrontier.bucket, n: sql<number>`count(*)` })
      .from(crawlFrontier)
      .where(and(eq(crawlFrontier.crawlId, this.crawlId), sql`${crawlFrontier.state} in (${sql.join(states.map((s) => sql`${s}`), sql`, `)})`))
      .groupBy(crawlFrontier.bucket)
      .all();
    for (const r of rows) counts[r.bucket] = r.n;
    return counts;
  }

  /** HITS refresh: a queued URL's authority estimate lifts its priority. Pages through the queue so memory stays bounded. */
  applyAuthority(scores: Map<string, number>): void {
    let after = '';
    for (;;) {
      const queued = this.db
        .select()
        .from(crawlFrontier)
        .where(and(eq(crawlFrontier.crawlId, this.crawlId), eq(crawlFrontier.state, 'queued'), gt(crawlFrontier.url, after)))
        .orderBy(asc(crawlFrontier.url))
        .limit(AUTHORITY_PAGE)
        .all();
      if (queued.length === 0) return;
      after = queued[queued.length - 1]!.url;
      for (const row of queued) {
        const authority = scores.get(row.url) ?? 0;
        if (authority === row.authority) continue;
        this.db
          .update(crawlFrontier)
          .set({ authority, priority: priorityOf({ relevance: row.relevance, cash: row.cash, authority, intent: this.intent }) })
          .where(and(eq(crawlFrontier.crawlId, this.crawlId), eq(crawlFrontier.url, row.url)))
          .run();
      }
    }
  }

  /** OPIC's total: all the cash banked (history) and still held; a page's importance is its share of it. */
  mass(): number {
    const row = this.db
      .select({ mass: sql<number | null>`sum(${crawlFrontier.history} + ${crawlFrontier.cash})` })
      .from(crawlFrontier)
      .where(eq(crawlFrontier.crawlId, this.crawlId))
      .get();
    return row?.mass ?? 0;
  }

  edges(): { from: string; to: string }[] {
    return this.db
      .select({ from: crawlEdges.fromUrl, to: crawlEdges.toUrl })
      .from(crawlEdges)
      .where(eq(crawlEdges.crawlId, this.crawlId))
      .all();
  }

  all(): Row[] {
    return this.db.select().from(crawlFrontier).where(eq(crawlFrontier.crawlId, this.crawlId)).all();
  }

  /** Discovery order; one runner owns a crawl at a time (the job lease), so the counter lives here. */
  private nextSeq(): number {
    if (this.seq === undefined) this.seq = this.maxSeq();
    this.seq += 1;
    return this.seq;
  }

  private maxSeq(): number {
    const row = this.db
      .select({ seq: sql<number | null>`max(${crawlFrontier.seq})` })
      .from(crawlFrontier)
      .where(eq(crawlFrontier.crawlId, this.crawlId))
      .get();
    return row?.seq ?? 0;
  }
}
