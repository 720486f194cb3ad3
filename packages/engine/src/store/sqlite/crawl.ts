import type Database from 'better-sqlite3';
import { and, count, desc, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { LinkRegion } from '../../html/links.js';
import { FRONTIER_BUCKETS, priorityOf, type CrawlStatus, type FrontierBucket, type FrontierState } from '../../crawl/vocabulary.js';
import type {
  BestPageRecord,
  CrawlDocumentRecord,
  CrawlListFilter,
  CrawlRecord,
  CrawlTransition,
  Discovered,
  DocumentNode,
  DocumentOrder,
  DocumentScores,
  EdgeIds,
  FrontierRow,
  NewCrawl,
  NewCrawlDocument,
  Rescore,
  RunState,
} from '../ports/crawl.js';
import { MAX_ANCHORS, normalizedUrls, relinked, seedLinks, unfetchedRow } from '../frontier.js';
import type { Db } from './open.js';
import { crawlDocumentScores, crawlDocuments, crawls } from './tables/crawl.js';
import { documentWithScores } from '../document-scores.js';

const AUTHORITY_PAGE = 1000;
const SELECTED = 'rowid AS id, url, seq, depth, state, bucket, relevance, cash, history, authority, priority, inlinks, anchors, context';
const COLUMNS = 'url, seq, depth, state, bucket, relevance, cash, history, authority, priority, inlinks, anchors, context';
/** priorityOf as an SQL function, so a relinked URL's priority is rewritten inside the upsert. */
const PRIORITY_FN = 'wvr_frontier_priority';
/** A known URL's cash after one more inlink: OPIC only pays URLs that are still to be fetched (store/frontier.ts's rule, in SQL). */
const RELINKED_CASH = "CASE WHEN state IN ('queued', 'fetching') THEN cash + excluded.cash ELSE cash END";
/**
 * The link promotes a URL waiting in exploration (store/frontier.ts's `promoted`): rare, and left to `relinked`. Set in
 * the upsert on every link, the bucket and relevance made a crawl of the catalogue 6 % slower (docs/benchmarks.md).
 */
const NOT_PROMOTED = "NOT (bucket = 'explore' AND excluded.bucket = 'detail')";
/** The link's anchor leaves a known URL's anchors as they are: none, the list full (MAX_ANCHORS), or already in it. */
const KEPT_ANCHOR = `(@anchor = '' OR json_array_length(anchors) >= ${MAX_ANCHORS} OR EXISTS (SELECT 1 FROM json_each(anchors) WHERE value = @anchor))`;

/** Without a scorer a new anchor changes no relevance: the statement appends it itself. */
const UNSCORED_ANCHORS = `anchors = CASE WHEN ${KEPT_ANCHOR} THEN anchors ELSE json_insert(anchors, '$[#]', @anchor) END`;

/** The upsert of a discovered link, with what else a known URL's update sets (`anchors`) and when it applies. */
const upsertLink = (anchors: string, where: string) =>
  `INSERT INTO crawl_frontier (crawl_id, ${COLUMNS}) VALUES (@crawlId, @url, @seq, @depth, 'queued', @bucket, @relevance, @cash, 0, 0, @priority, @inlinks, @anchors, @context)
   ON CONFLICT (crawl_id, url) DO UPDATE SET
     inlinks = inlinks + 1,
     ${anchors}
     cash = ${RELINKED_CASH},
     depth = min(depth, excluded.depth),
     priority = ${PRIORITY_FN}(relevance, ${RELINKED_CASH}, authority, @intent)
   ${where}
   RETURNING rowid AS id, seq`;

/**
 * The same link to a URL that is settled (fetched, failed, filtered, a duplicate or only seen): one more inlink and
 * maybe its anchor, nothing else. Its cash, depth and priority no longer count, and an UPDATE that sets an indexed
 * column, even to the value it has, rewrites the row's entry in that index: on a real site most links lead to pages
 * already fetched, and the upsert rewrote both of the frontier's indexes for each (docs/benchmarks.md).
 */
const relinkSettled = (anchors: string, where: string) =>
  `UPDATE crawl_frontier SET inlinks = inlinks + 1 ${anchors}
   WHERE crawl_id = @crawlId AND url = @url AND state NOT IN ('queued', 'fetching') ${where}
   RETURNING rowid AS id`;

const { columns: DOCUMENT_COLUMNS, best: BEST_PAGE_COLUMNS, join: SCORES_OF_DOCUMENT, orders: DOCUMENT_ORDERS } = documentWithScores(crawlDocuments, crawlDocumentScores);

/** A frontier row as SQLite returns it: anchors still JSON text. */
type RawRow = Omit<FrontierRow, 'anchors'> & { anchors: string };

/**
 * Crawls, documents and frontiers on SQLite. Every hot statement is prepared once per connection
 * and shared by every crawl on it (a crawl run issues dozens per page, and building and preparing
 * them again each time was most of a crawl's CPU); crawl rows and document pages go through drizzle.
 */
export class SqliteCrawl {
  private readonly q;
  /**
   * The reads of every API request about a crawl (its row, a page of its documents), prepared once through drizzle:
   * built and prepared again per request, they were half the time of reading a crawl's documents back.
   */
  private readonly reads;

  constructor(
    sqlite: Database.Database,
    private readonly db: Db,
  ) {
    registerPriority(sqlite);
    const p = (source: string) => sqlite.prepare(source);
    this.q = {
      // The crawl row and its documents.
      state: p(
        'SELECT status, pages_fetched AS pagesFetched, pages_failed AS pagesFailed, pages_cached AS pagesCached, price_per_page AS pricePerPage, reservation_id AS reservationId, last_failure AS lastFailure FROM crawls WHERE id = ?',
      ),
      failed: p('UPDATE crawls SET pages_failed = pages_failed + 1, last_failure = ? WHERE id = ?'),
      skipped: p('UPDATE crawls SET pages_skipped = pages_skipped + 1 WHERE id = ?'),
      filtered: p('UPDATE crawls SET pages_filtered = pages_filtered + 1 WHERE id = ?'),
      fetched: p('UPDATE crawls SET pages_fetched = pages_fetched + 1, credits_used = credits_used + ?, pages_cached = pages_cached + ? WHERE id = ?'),
      fingerprints: p("SELECT json_extract(metadata, '$.content_fingerprint') AS f FROM crawl_documents WHERE crawl_id = ?").pluck(),
      insertDocument: p(
        `INSERT INTO crawl_documents (crawl_id, url, seq, final_url, status_code, content_type, depth, title, description, language, published_date, text, markdown, links, metadata, extracted_data, classification, summary, from_cache, credits, fetched_at)
         VALUES (@crawlId, @url, @seq, @finalUrl, @statusCode, @contentType, @depth, @title, @description, @language, @publishedDate, @text, @markdown, @links, @metadata, @extractedData, @classification, @summary, @fromCache, @credits, @fetchedAt)
         ON CONFLICT DO NOTHING`,
      ),
      insertScores: p('INSERT INTO crawl_document_scores (crawl_id, url, inlinks, anchors) VALUES (@crawlId, @url, @inlinks, @anchors) ON CONFLICT DO NOTHING'),
      documentNodes: p(
        `SELECT s.url, s.importance, s.hub_score AS hubScore, s.authority_score AS authorityScore, s.inlinks, s.outlinks, json_array_length(s.anchors) AS anchorCount,
                f.rowid AS node, coalesce(f.history + f.cash, 0) AS weight, coalesce(f.inlinks, 0) AS nodeInlinks, coalesce(f.anchors, '[]') AS nodeAnchors
         FROM crawl_document_scores s LEFT JOIN crawl_frontier f ON f.crawl_id = s.crawl_id AND f.url = s.url
         WHERE s.crawl_id = ?`,
      ),
      setScores: p(
        'UPDATE crawl_document_scores SET importance = @importance, hub_score = @hubScore, authority_score = @authorityScore, inlinks = @inlinks, outlinks = @outlinks, anchors = @anchors WHERE crawl_id = @crawlId AND url = @url',
      ),
      summaries: p(
        `SELECT d.url, d.title, d.text, d.summary FROM crawl_documents d LEFT JOIN crawl_frontier f ON f.crawl_id = d.crawl_id AND f.url = d.url
         WHERE d.crawl_id = ? ORDER BY coalesce(f.history + f.cash, 0) DESC, d.rowid ASC`,
      ),
      queued: p("SELECT count(*) FROM crawl_frontier WHERE crawl_id = ? AND state = 'queued'").pluck(),

      // The frontier.
      get: p(`SELECT ${SELECTED} FROM crawl_frontier WHERE crawl_id = ? AND url = ?`),
      known: p('SELECT 1 FROM crawl_frontier WHERE crawl_id = ? AND url = ?').pluck(),
      insert: p(
        `INSERT INTO crawl_frontier (crawl_id, ${COLUMNS}) VALUES (@crawlId, @url, @seq, @depth, @state, @bucket, @relevance, @cash, @history, @authority, @priority, @inlinks, @anchors, @context)`,
      ),
      // One statement per discovered link: a new URL is inserted; a known one gets its inlink, cash, depth and priority
      // here. A new anchor may change its relevance, which only the caller's scorer knows: with a scorer the WHERE lets
      // that case through untouched (`upsert`); without one the statement appends the anchor itself (`upsertUnscored`).
      // A link that promotes the URL out of exploration is let through by both.
      upsert: p(upsertLink('', `WHERE ${KEPT_ANCHOR} AND ${NOT_PROMOTED}`)),
      upsertUnscored: p(upsertLink(`${UNSCORED_ANCHORS},`, `WHERE ${NOT_PROMOTED}`)),
      relinkSettled: p(relinkSettled('', `AND ${KEPT_ANCHOR}`)),
      relinkSettledUnscored: p(relinkSettled(`, ${UNSCORED_ANCHORS}`, '')),
      relink: p(
        'UPDATE crawl_frontier SET inlinks = @inlinks, anchors = @anchors, cash = @cash, relevance = @relevance, bucket = @bucket, depth = @depth, priority = @priority WHERE crawl_id = @crawlId AND url = @url',
      ),
      requeue: p("UPDATE crawl_frontier SET state = 'queued' WHERE crawl_id = ? AND state = 'fetching'"),
      addEdge: p('INSERT INTO crawl_edges (crawl_id, from_url, to_url, region) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING'),
      bucketCandidates: p(`SELECT ${SELECTED} FROM crawl_frontier WHERE crawl_id = ? AND state = 'queued' AND bucket = ? ORDER BY priority DESC, seq ASC LIMIT ?`),
      breadthCandidates: p(`SELECT ${SELECTED} FROM crawl_frontier WHERE crawl_id = ? AND state = 'queued' ORDER BY depth ASC, seq ASC LIMIT ?`),
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
      urlOf: p('SELECT url FROM crawl_frontier WHERE crawl_id = ? AND rowid = ?').pluck(),
      urls: p('SELECT rowid, url FROM crawl_frontier WHERE crawl_id = ?').raw(),
      maxSeq: p('SELECT max(seq) FROM crawl_frontier WHERE crawl_id = ?').pluck(),
    };
    const crawlId = sql.placeholder('crawlId');
    const ofCrawl = eq(crawlDocuments.crawlId, crawlId);
    // A page's keys first, then its rows: sorting whole rows would read every document's text for a page of a few.
    const limit = sql.placeholder('limit');
    const offset = sql.placeholder('offset');
    const urls = { url: crawlDocuments.url };
    this.reads = {
      crawl: db.select().from(crawls).where(eq(crawls.id, sql.placeholder('id'))).prepare(),
      // Crawl order is the documents' own; importance is their scores'.
      keys: {
        crawl: db.select(urls).from(crawlDocuments).where(ofCrawl).orderBy(...DOCUMENT_ORDERS.crawl).limit(limit).offset(offset).prepare(),
        importance: db
          .select(urls)
          .from(crawlDocuments)
          .innerJoin(crawlDocumentScores, SCORES_OF_DOCUMENT)
          .where(ofCrawl)
          .orderBy(...DOCUMENT_ORDERS.importance)
          .limit(limit)
          .offset(offset)
          .prepare(),
      },
      document: db
        .select(DOCUMENT_COLUMNS)
        .from(crawlDocuments)
        .innerJoin(crawlDocumentScores, SCORES_OF_DOCUMENT)
        .where(and(ofCrawl, eq(crawlDocuments.url, sql.placeholder('url'))))
        .prepare(),
      documentCount: db.select({ n: count() }).from(crawlDocuments).where(ofCrawl).prepare(),
      bestPages: db
        .select(BEST_PAGE_COLUMNS)
        .from(crawlDocuments)
        .innerJoin(crawlDocumentScores, SCORES_OF_DOCUMENT)
        .where(ofCrawl)
        .orderBy(...DOCUMENT_ORDERS.importance)
        .limit(limit)
        .prepare(),
    };
  }

  insert(crawl: NewCrawl): void {
    this.db.insert(crawls).values(crawl).run();
  }

  get(id: string): CrawlRecord | undefined {
    return this.reads.crawl.get({ id });
  }

  list(f: CrawlListFilter): { rows: CrawlRecord[]; total: number } {
    const where = and(or(eq(crawls.userId, f.userId), inArray(crawls.id, [...f.sharedIds])), f.status ? eq(crawls.status, f.status) : undefined);
    const total = this.db.select({ n: count() }).from(crawls).where(where).get()!.n;
    const rows = this.db.select().from(crawls).where(where).orderBy(desc(crawls.createdAt), desc(crawls.id)).limit(f.limit).offset(f.offset).all();
    return { rows, total };
  }

  transition(id: string, from: readonly CrawlStatus[], fields: CrawlTransition): boolean {
    return this.db.update(crawls).set(fields).where(and(eq(crawls.id, id), inArray(crawls.status, [...from]))).run().changes > 0;
  }

  runState(id: string): RunState | undefined {
    return this.q.state.get(id) as RunState | undefined;
  }

  countFailed(id: string, lastFailure: string): void {
    this.q.failed.run(lastFailure, id);
  }

  countSkipped(id: string): void {
    this.q.skipped.run(id);
  }

  countFiltered(id: string): void {
    this.q.filtered.run(id);
  }

  countFetched(id: string, credits: number, fromCache: boolean): void {
    this.q.fetched.run(credits, fromCache ? 1 : 0, id);
  }

  queuedCount(id: string): number {
    return this.q.queued.get(id) as number;
  }

  insertDocument(doc: NewCrawlDocument): void {
    const { changes } = this.q.insertDocument.run({
      ...doc,
      links: JSON.stringify(doc.links),
      metadata: JSON.stringify(doc.metadata),
      extractedData: doc.extractedData ? JSON.stringify(doc.extractedData) : null,
      classification: doc.classification ? JSON.stringify(doc.classification) : null,
      fromCache: doc.fromCache ? 1 : 0,
    });
    if (changes > 0) this.q.insertScores.run({ crawlId: doc.crawlId, url: doc.url, inlinks: doc.inlinks, anchors: JSON.stringify(doc.anchors) });
  }

  documents(crawlId: string, page: { order: DocumentOrder; limit?: number | undefined; offset?: number | undefined }): CrawlDocumentRecord[] {
    if (page.limit === undefined) {
      return this.db.select(DOCUMENT_COLUMNS).from(crawlDocuments).innerJoin(crawlDocumentScores, SCORES_OF_DOCUMENT).where(eq(crawlDocuments.crawlId, crawlId)).orderBy(...DOCUMENT_ORDERS[page.order]).all();
    }
    const keys = this.reads.keys[page.order].all({ crawlId, limit: page.limit, offset: page.offset ?? 0 });
    return keys.flatMap(({ url }) => this.reads.document.get({ crawlId, url }) ?? []);
  }

  documentCount(crawlId: string): number {
    return this.reads.documentCount.get({ crawlId })!.n;
  }

  bestPages(crawlId: string, limit: number): BestPageRecord[] {
    return this.reads.bestPages.all({ crawlId, limit });
  }

  classifications(crawlId: string): { url: string; classification: { label: string; confidence: number } }[] {
    return this.db
      .select({ url: crawlDocuments.url, classification: crawlDocuments.classification })
      .from(crawlDocuments)
      .where(and(eq(crawlDocuments.crawlId, crawlId), isNotNull(crawlDocuments.classification)))
      .orderBy(...DOCUMENT_ORDERS.crawl)
      .all()
      .flatMap((d) => (d.classification ? [{ url: d.url, classification: d.classification }] : []));
  }

  fingerprints(crawlId: string): string[] {
    return (this.q.fingerprints.all(crawlId) as (string | null)[]).filter((f): f is string => f !== null);
  }

  documentNodes(crawlId: string): DocumentNode[] {
    return (this.q.documentNodes.all(crawlId) as (Omit<DocumentNode, 'nodeAnchors'> & { nodeAnchors: string })[]).map((d) => ({
      ...d,
      nodeAnchors: JSON.parse(d.nodeAnchors) as string[],
    }));
  }

  setScores(crawlId: string, scores: readonly DocumentScores[]): void {
    for (const s of scores) this.q.setScores.run({ ...s, crawlId, anchors: JSON.stringify(s.anchors) });
  }

  summaries(crawlId: string): { url: string; title: string | null; text: string; summary: string | null }[] {
    return this.q.summaries.all(crawlId) as { url: string; title: string | null; text: string; summary: string | null }[];
  }

  frontier(crawlId: string, intent: boolean): SqliteFrontier {
    return new SqliteFrontier(this.q, crawlId, intent);
  }
}

type Statements = SqliteCrawl['q'];

/** One crawl's frontier over the connection's shared statements. */
class SqliteFrontier {
  private seq: number | undefined;

  constructor(
    private readonly q: Statements,
    private readonly crawlId: string,
    private readonly intent: boolean,
  ) {}

  get(url: string): FrontierRow | undefined {
    const raw = this.q.get.get(this.crawlId, url) as RawRow | undefined;
    return raw ? row(raw) : undefined;
  }

  known(urls: readonly string[]): Set<string> {
    return new Set(urls.filter((url) => this.q.known.get(this.crawlId, url) !== undefined));
  }

  seed(urls: readonly string[]): void {
    this.discoverMany(seedLinks(urls));
  }

  markSeen(urls: readonly string[]): void {
    for (const url of normalizedUrls(urls)) if (!this.get(url)) this.insert(unfetchedRow(url, 0, 'seen', this.nextSeq()));
  }

  requeueInFlight(): void {
    this.q.requeue.run(this.crawlId);
  }

  /** The same prepared statements one link at a time, all inside the one call (one gate turn for a whole page). */
  discoverMany(links: readonly Discovered[], rescore?: Rescore): number[] {
    return links.map((d) => this.discover(d, rescore));
  }

  addEdges(from: string, links: readonly { url: string; region: LinkRegion }[]): boolean[] {
    return links.map((l) => this.q.addEdge.run(this.crawlId, from, l.url, l.region).changes > 0);
  }

  /** One writer at a time: the caller's transaction keeps them for it. */
  candidates(order: 'buckets' | 'breadth_first', limit: number): FrontierRow[] {
    const raws =
      order === 'breadth_first'
        ? this.q.breadthCandidates.all(this.crawlId, limit)
        : FRONTIER_BUCKETS.flatMap((bucket) => this.q.bucketCandidates.all(this.crawlId, bucket, limit));
    return (raws as RawRow[]).map(row);
  }

  claim(rows: readonly FrontierRow[]): FrontierRow[] {
    return rows.map((r) => {
      this.setState(r.url, 'fetching');
      return { ...r, state: 'fetching' };
    });
  }

  setState(url: string, state: FrontierState): void {
    this.q.setState.run(state, this.crawlId, url);
  }

  bankCash(url: string): number {
    const known = this.get(url);
    if (!known) return 0;
    this.q.bank.run(this.crawlId, url);
    return known.cash;
  }

  markCovered(url: string, depth: number): void {
    const existing = this.get(url);
    if (existing) {
      if (existing.state === 'queued') this.setState(url, 'duplicate');
      return;
    }
    this.insert(unfetchedRow(url, depth, 'duplicate', this.nextSeq()));
  }

  countsByBucket(states: readonly FrontierState[]): Record<FrontierBucket, number> {
    const counts: Record<FrontierBucket, number> = { seed: 0, hub: 0, detail: 0, explore: 0 };
    for (const r of this.q.counts.all(this.crawlId) as { bucket: FrontierBucket; state: FrontierState; n: number }[]) {
      if (states.includes(r.state)) counts[r.bucket] += r.n;
    }
    return counts;
  }

  applyAuthority(authorityOf: (rowId: number) => number): void {
    let after = 0;
    for (;;) {
      const queued = this.q.queuedPage.all(this.crawlId, after, AUTHORITY_PAGE) as { id: number; relevance: number; cash: number; authority: number }[];
      if (queued.length === 0) return;
      after = queued[queued.length - 1]!.id;
      for (const r of queued) {
        const authority = authorityOf(r.id);
        if (authority === r.authority) continue;
        this.q.setAuthority.run(authority, priorityOf({ relevance: r.relevance, cash: r.cash, authority, intent: this.intent }), r.id);
      }
    }
  }

  mass(): number {
    return (this.q.mass.get(this.crawlId) as number | null) ?? 0;
  }

  edgeIds(weights: Readonly<Record<LinkRegion, number>>): EdgeIds {
    const from: number[] = [];
    const to: number[] = [];
    const weight: number[] = [];
    for (const [f, t, region] of this.q.edgeIds.iterate(this.crawlId) as IterableIterator<[number, number, LinkRegion]>) {
      from.push(f);
      to.push(t);
      weight.push(weights[region]);
    }
    return { from, to, weight };
  }

  totals(): { nodes: number; fetched: number; banked: number } {
    return this.q.totals.get(this.crawlId) as { nodes: number; fetched: number; banked: number };
  }

  heaviest(limit: number): { url: string; weight: number; inlinks: number }[] {
    return this.q.top.all(this.crawlId, limit) as { url: string; weight: number; inlinks: number }[];
  }

  urlsOf(rowIds: readonly number[]): Map<number, string> {
    const urls = new Map<number, string>();
    for (const id of rowIds) {
      const url = this.q.urlOf.get(this.crawlId, id) as string | undefined;
      if (url !== undefined) urls.set(id, url);
    }
    return urls;
  }

  /** Streamed: nothing but the current row is held. */
  forEachUrl(visit: (rowId: number, url: string) => void): void {
    for (const [id, url] of this.q.urls.iterate(this.crawlId) as IterableIterator<[number, string]>) visit(id, url);
  }

  private discover(d: Discovered, rescore: Rescore | undefined): number {
    const settled = (rescore ? this.q.relinkSettled : this.q.relinkSettledUnscored).get({ crawlId: this.crawlId, url: d.url, anchor: d.anchor }) as { id: number } | undefined;
    if (settled) return settled.id;
    const seq = this.nextSeq();
    // queuedRow's fields, bound as they are: no intermediate row object on the one hot statement. Without a scorer a
    // new anchor changes no relevance, so the statement keeps it itself (a third of a real site's links bring one).
    const done = (rescore ? this.q.upsert : this.q.upsertUnscored).get({
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
    // A new anchor (the scorer rescores the URL) or a promotion (store/frontier.ts), then one update writes it.
    const existing = this.get(d.url)!;
    const next = relinked(existing, d, rescore, this.intent);
    this.q.relink.run({ ...next, crawlId: this.crawlId, url: d.url, anchors: JSON.stringify(next.anchors) });
    return existing.id;
  }

  private insert(r: Omit<FrontierRow, 'id'>): void {
    this.q.insert.run({ ...r, crawlId: this.crawlId, anchors: JSON.stringify(r.anchors) });
  }

  /** Discovery order; one runner owns a crawl at a time (the job lease), so the counter lives here. */
  private nextSeq(): number {
    if (this.seq === undefined) this.seq = (this.q.maxSeq.get(this.crawlId) as number | null) ?? 0;
    this.seq += 1;
    return this.seq;
  }
}

function row(raw: RawRow): FrontierRow {
  return { ...raw, anchors: JSON.parse(raw.anchors) as string[] };
}

/** Once per connection: every crawl on it shares the one pure function. */
function registerPriority(sqlite: Database.Database): void {
  const known = sqlite.prepare('SELECT 1 FROM pragma_function_list WHERE name = ?').pluck().get(PRIORITY_FN);
  if (known) return;
  sqlite.function(PRIORITY_FN, { deterministic: true }, (relevance, cash, authority, intent) =>
    priorityOf({ relevance: Number(relevance), cash: Number(cash), authority: Number(authority), intent: intent === 1 }),
  );
}
