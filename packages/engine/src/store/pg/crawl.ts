import { and, count, desc, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { LinkRegion } from '../../html/links.js';
import { FRONTIER_BUCKETS, priorityOf, type CrawlStatus, type FrontierBucket, type FrontierState } from '../../crawl/vocabulary.js';
import type {
  BestPageRecord,
  CrawlDocumentRecord,
  CrawlListFilter,
  CrawlPort,
  CrawlRecord,
  CrawlTransition,
  Discovered,
  DocumentNode,
  DocumentOrder,
  DocumentScores,
  EdgeIds,
  FrontierPort,
  FrontierRow,
  NewCrawl,
  NewCrawlDocument,
  Rescore,
  RunState,
} from '../ports/crawl.js';
import { normalizedUrls, queuedRow, relinked, seedLinks, unfetchedRow } from '../frontier.js';
import type { PgExecutor } from './executor.js';
import { crawlDocumentScores, crawlDocuments, crawls } from './tables/crawl.js';
import { documentWithScores } from '../document-scores.js';

/** Rows read per statement where a whole crawl is walked (authority refresh, URL visits). */
const PAGE = 1000;

const { columns: DOCUMENT_COLUMNS, best: BEST_PAGE_COLUMNS, join: SCORES_OF_DOCUMENT, orders: DOCUMENT_ORDERS } = documentWithScores(crawlDocuments, crawlDocumentScores);
const SELECTED = 'id, url, seq, depth, state, bucket, relevance, cash, history, authority, priority, inlinks, anchors, context';

/**
 * Crawls, documents and frontiers on PostgreSQL. Where SQLite runs one cheap statement per link,
 * each statement here is a round trip, so a page's links are a handful of statements over arrays
 * (`unnest`), whatever their number, and the priority is computed in TypeScript (priorityOf) rather
 * than by an SQL function.
 */
export class PgCrawl implements CrawlPort {
  constructor(private readonly ex: PgExecutor) {}

  private get db() {
    return this.ex.db;
  }

  async insert(crawl: NewCrawl): Promise<void> {
    await this.db.insert(crawls).values(crawl);
  }

  async get(id: string): Promise<CrawlRecord | undefined> {
    const [row] = await this.db.select().from(crawls).where(eq(crawls.id, id));
    return row;
  }

  async list(f: CrawlListFilter): Promise<{ rows: CrawlRecord[]; total: number }> {
    const shared = f.sharedIds.length > 0 ? inArray(crawls.id, [...f.sharedIds]) : sql`false`;
    const where = and(or(eq(crawls.userId, f.userId), shared), f.status ? eq(crawls.status, f.status) : undefined);
    const [counted] = await this.db.select({ n: count() }).from(crawls).where(where);
    const rows = await this.db.select().from(crawls).where(where).orderBy(desc(crawls.createdAt), desc(crawls.id)).limit(f.limit).offset(f.offset);
    return { rows, total: counted!.n };
  }

  async transition(id: string, from: readonly CrawlStatus[], fields: CrawlTransition): Promise<boolean> {
    const changed = await this.db
      .update(crawls)
      .set(fields)
      .where(and(eq(crawls.id, id), inArray(crawls.status, [...from])));
    return (changed.rowCount ?? 0) > 0;
  }

  async runState(id: string): Promise<RunState | undefined> {
    const [row] = await this.db
      .select({
        status: crawls.status,
        pagesFetched: crawls.pagesFetched,
        pagesFailed: crawls.pagesFailed,
        pagesCached: crawls.pagesCached,
        pricePerPage: crawls.pricePerPage,
        reservationId: crawls.reservationId,
        lastFailure: crawls.lastFailure,
      })
      .from(crawls)
      .where(eq(crawls.id, id));
    return row;
  }

  async countFailed(id: string, lastFailure: string): Promise<void> {
    await this.ex.query('UPDATE crawls SET pages_failed = pages_failed + 1, last_failure = $2 WHERE id = $1', [id, lastFailure]);
  }

  async countSkipped(id: string): Promise<void> {
    await this.ex.query('UPDATE crawls SET pages_skipped = pages_skipped + 1 WHERE id = $1', [id]);
  }

  async countFiltered(id: string): Promise<void> {
    await this.ex.query('UPDATE crawls SET pages_filtered = pages_filtered + 1 WHERE id = $1', [id]);
  }

  async countFetched(id: string, credits: number, fromCache: boolean): Promise<void> {
    await this.ex.query('UPDATE crawls SET pages_fetched = pages_fetched + 1, credits_used = credits_used + $2, pages_cached = pages_cached + $3 WHERE id = $1', [
      id,
      credits,
      fromCache ? 1 : 0,
    ]);
  }

  async queuedCount(id: string): Promise<number> {
    const { rows } = await this.ex.query<{ n: number }>("SELECT count(*) AS n FROM crawl_frontier WHERE crawl_id = $1 AND state = 'queued'", [id]);
    return rows[0]!.n;
  }

  async insertDocument(doc: NewCrawlDocument): Promise<void> {
    const { inlinks, anchors, ...row } = doc;
    // Scores only beside a document this call stored, as on SQLite: a page stored already keeps its own.
    const stored = await this.db.insert(crawlDocuments).values(row).onConflictDoNothing().returning({ url: crawlDocuments.url });
    if (stored.length > 0) await this.db.insert(crawlDocumentScores).values({ crawlId: doc.crawlId, url: doc.url, inlinks, anchors }).onConflictDoNothing();
  }

  async documents(crawlId: string, page: { order: DocumentOrder; limit?: number | undefined; offset?: number | undefined }): Promise<CrawlDocumentRecord[]> {
    const ordering = DOCUMENT_ORDERS[page.order];
    const of = eq(crawlDocuments.crawlId, crawlId);
    const documents = () => this.db.select(DOCUMENT_COLUMNS).from(crawlDocuments).innerJoin(crawlDocumentScores, SCORES_OF_DOCUMENT);
    if (page.limit === undefined) return documents().where(of).orderBy(...ordering);
    // A page's keys first, then only those rows: sorting whole rows would carry every document's text.
    const keys = this.db.select({ url: crawlDocuments.url }).from(crawlDocuments).$dynamic();
    // Crawl order is the documents' own; importance is their scores'.
    const found = await (page.order === 'importance' ? keys.innerJoin(crawlDocumentScores, SCORES_OF_DOCUMENT) : keys)
      .where(of)
      .orderBy(...ordering)
      .limit(page.limit)
      .offset(page.offset ?? 0);
    if (found.length === 0) return [];
    const rows = new Map((await documents().where(and(of, inArray(crawlDocuments.url, found.map((k) => k.url))))).map((r) => [r.url, r]));
    return found.flatMap((k) => rows.get(k.url) ?? []);
  }

  bestPages(crawlId: string, limit: number): Promise<BestPageRecord[]> {
    return this.db
      .select(BEST_PAGE_COLUMNS)
      .from(crawlDocuments)
      .innerJoin(crawlDocumentScores, SCORES_OF_DOCUMENT)
      .where(eq(crawlDocuments.crawlId, crawlId))
      .orderBy(...DOCUMENT_ORDERS.importance)
      .limit(limit);
  }

  async documentCount(crawlId: string): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(crawlDocuments).where(eq(crawlDocuments.crawlId, crawlId));
    return row!.n;
  }

  async classifications(crawlId: string): Promise<{ url: string; classification: { label: string; confidence: number } }[]> {
    const rows = await this.db
      .select({ url: crawlDocuments.url, classification: crawlDocuments.classification })
      .from(crawlDocuments)
      .where(and(eq(crawlDocuments.crawlId, crawlId), isNotNull(crawlDocuments.classification)))
      .orderBy(...DOCUMENT_ORDERS.crawl);
    return rows.flatMap((d) => (d.classification ? [{ url: d.url, classification: d.classification }] : []));
  }

  async fingerprints(crawlId: string): Promise<string[]> {
    const { rows } = await this.ex.query<{ f: string }>(
      "SELECT metadata->>'content_fingerprint' AS f FROM crawl_documents WHERE crawl_id = $1 AND metadata->>'content_fingerprint' IS NOT NULL",
      [crawlId],
    );
    return rows.map((r) => r.f);
  }

  async documentNodes(crawlId: string): Promise<DocumentNode[]> {
    const { rows } = await this.ex.query<DocumentNode>(
      `SELECT s.url, s.importance, s.hub_score AS "hubScore", s.authority_score AS "authorityScore", s.inlinks, s.outlinks, jsonb_array_length(s.anchors) AS "anchorCount",
              f.id AS node, coalesce(f.history + f.cash, 0) AS weight, coalesce(f.inlinks, 0) AS "nodeInlinks", coalesce(f.anchors, '[]'::jsonb) AS "nodeAnchors"
       FROM crawl_document_scores s LEFT JOIN crawl_frontier f ON f.crawl_id = s.crawl_id AND f.url = s.url
       WHERE s.crawl_id = $1`,
      [crawlId],
    );
    return rows;
  }

  async setScores(crawlId: string, scores: readonly DocumentScores[]): Promise<void> {
    if (scores.length === 0) return;
    await this.ex.query(
      `UPDATE crawl_document_scores d SET importance = s.importance, hub_score = s.hub, authority_score = s.authority, inlinks = s.inlinks, outlinks = s.outlinks, anchors = s.anchors::jsonb
       FROM unnest($2::text[], $3::float8[], $4::float8[], $5::float8[], $6::int[], $7::int[], $8::text[]) AS s(url, importance, hub, authority, inlinks, outlinks, anchors)
       WHERE d.crawl_id = $1 AND d.url = s.url`,
      [
        crawlId,
        scores.map((s) => s.url),
        scores.map((s) => s.importance),
        scores.map((s) => s.hubScore),
        scores.map((s) => s.authorityScore),
        scores.map((s) => s.inlinks),
        scores.map((s) => s.outlinks),
        scores.map((s) => JSON.stringify(s.anchors)),
      ],
    );
  }

  async summaries(crawlId: string): Promise<{ url: string; title: string | null; text: string; summary: string | null }[]> {
    // Equal weights (siblings share their page's cash) fall back to crawl order.
    const { rows } = await this.ex.query<{ url: string; title: string | null; text: string; summary: string | null }>(
      `SELECT d.url, d.title, d.text, d.summary FROM crawl_documents d LEFT JOIN crawl_frontier f ON f.crawl_id = d.crawl_id AND f.url = d.url
       WHERE d.crawl_id = $1 ORDER BY coalesce(f.history + f.cash, 0) DESC, d.seq ASC`,
      [crawlId],
    );
    return rows;
  }

  frontier(crawlId: string, intent: boolean): FrontierPort {
    return new PgFrontier(this.ex, crawlId, intent);
  }
}

/** One crawl's frontier on PostgreSQL. */
class PgFrontier implements FrontierPort {
  private seq: number | undefined;

  constructor(
    private readonly ex: PgExecutor,
    private readonly crawlId: string,
    private readonly intent: boolean,
  ) {}

  async get(url: string): Promise<FrontierRow | undefined> {
    const { rows } = await this.ex.query<FrontierRow>(`SELECT ${SELECTED} FROM crawl_frontier WHERE crawl_id = $1 AND url = $2`, [this.crawlId, url]);
    return rows[0];
  }

  async known(urls: readonly string[]): Promise<Set<string>> {
    if (urls.length === 0) return new Set();
    const { rows } = await this.ex.query<{ url: string }>('SELECT url FROM crawl_frontier WHERE crawl_id = $1 AND url = ANY($2::text[])', [this.crawlId, urls]);
    return new Set(rows.map((r) => r.url));
  }

  async seed(urls: readonly string[]): Promise<void> {
    await this.discoverMany(seedLinks(urls));
  }

  async markSeen(urls: readonly string[]): Promise<void> {
    const candidates = normalizedUrls(urls);
    const known = await this.known(candidates);
    const fresh: Omit<FrontierRow, 'id'>[] = [];
    for (const url of candidates) if (!known.has(url)) fresh.push(unfetchedRow(url, 0, 'seen', await this.nextSeq()));
    await this.insertRows(fresh);
  }

  async requeueInFlight(): Promise<void> {
    await this.ex.query("UPDATE crawl_frontier SET state = 'queued' WHERE crawl_id = $1 AND state = 'fetching'", [this.crawlId]);
  }

  /**
   * Two statements for any number of links: the known rows are read (and locked), the links are
   * applied to them in memory one at a time (store/frontier.ts's rules, so a URL twice in one batch
   * counts twice), then one statement inserts the new URLs and updates the known ones.
   */
  async discoverMany(links: readonly Discovered[], rescore?: Rescore): Promise<number[]> {
    if (links.length === 0) return [];
    const { rows } = await this.ex.query<FrontierRow>(`SELECT ${SELECTED} FROM crawl_frontier WHERE crawl_id = $1 AND url = ANY($2::text[]) FOR UPDATE`, [
      this.crawlId,
      [...new Set(links.map((l) => l.url))],
    ]);
    const known = new Map(rows.map((r) => [r.url, r]));
    const fresh = new Map<string, Omit<FrontierRow, 'id'>>();
    const changed = new Set<FrontierRow>();
    for (const d of links) {
      const stored = known.get(d.url);
      const row = stored ?? fresh.get(d.url);
      if (!row) {
        fresh.set(d.url, queuedRow(d, await this.nextSeq(), this.intent));
        continue;
      }
      Object.assign(row, relinked(row, d, rescore, this.intent));
      if (stored) changed.add(stored);
    }
    const ids = await this.insertRows([...fresh.values()], [...changed]);
    return links.map((d) => known.get(d.url)?.id ?? ids.get(d.url)!);
  }

  async addEdges(from: string, links: readonly { url: string; region: LinkRegion }[]): Promise<boolean[]> {
    if (links.length === 0) return [];
    const { rows } = await this.ex.query<{ to_url: string }>(
      `INSERT INTO crawl_edges (crawl_id, from_url, to_url, region) SELECT $1, $2, * FROM unnest($3::text[], $4::text[])
       ON CONFLICT DO NOTHING RETURNING to_url`,
      [this.crawlId, from, links.map((l) => l.url), links.map((l) => l.region)],
    );
    const stored = new Set(rows.map((r) => r.to_url));
    // A link listed twice is stored once: only its first mention counts as new, as one at a time.
    return links.map((l) => stored.delete(l.url));
  }

  /** One statement: each bucket's best by its index (a lateral subquery a bucket), rows another claimer holds skipped. */
  async candidates(order: 'buckets' | 'breadth_first', limit: number): Promise<FrontierRow[]> {
    if (limit <= 0) return [];
    const { rows } =
      order === 'breadth_first'
        ? await this.ex.query<FrontierRow>(
            `SELECT ${SELECTED} FROM crawl_frontier WHERE crawl_id = $1 AND state = 'queued' ORDER BY depth ASC, seq ASC LIMIT $2 FOR UPDATE SKIP LOCKED`,
            [this.crawlId, limit],
          )
        : await this.ex.query<FrontierRow>(
            `SELECT c.* FROM unnest($2::text[]) WITH ORDINALITY AS b(bucket, n) CROSS JOIN LATERAL (
               SELECT ${SELECTED} FROM crawl_frontier WHERE crawl_id = $1 AND state = 'queued' AND bucket = b.bucket
               ORDER BY priority DESC, seq ASC LIMIT $3 FOR UPDATE SKIP LOCKED) c
             ORDER BY b.n, c.priority DESC, c.seq ASC`,
            [this.crawlId, FRONTIER_BUCKETS, limit],
          );
    return rows;
  }

  async claim(rows: readonly FrontierRow[]): Promise<FrontierRow[]> {
    if (rows.length === 0) return [];
    await this.ex.query("UPDATE crawl_frontier SET state = 'fetching' WHERE crawl_id = $1 AND id = ANY($2::bigint[])", [this.crawlId, rows.map((r) => r.id)]);
    return rows.map((r) => ({ ...r, state: 'fetching' }));
  }

  async setState(url: string, state: FrontierState): Promise<void> {
    await this.ex.query('UPDATE crawl_frontier SET state = $3 WHERE crawl_id = $1 AND url = $2', [this.crawlId, url, state]);
  }

  async bankCash(url: string): Promise<number> {
    // RETURNING shows the row as written; the cash it held comes from the statement's own snapshot.
    const { rows } = await this.ex.query<{ cash: number }>(
      `UPDATE crawl_frontier f SET history = f.history + f.cash, cash = 0, state = 'done'
       FROM (SELECT cash FROM crawl_frontier WHERE crawl_id = $1 AND url = $2) AS held
       WHERE f.crawl_id = $1 AND f.url = $2 RETURNING held.cash`,
      [this.crawlId, url],
    );
    return rows[0]?.cash ?? 0;
  }

  async markCovered(url: string, depth: number): Promise<void> {
    const row = unfetchedRow(url, depth, 'duplicate', await this.nextSeq());
    // One statement either way; the seq it returns tells a new row from a known one, which keeps its own.
    const { rows } = await this.ex.query<{ seq: number }>(
      `INSERT INTO crawl_frontier (crawl_id, url, seq, depth, state, bucket, anchors) VALUES ($1, $2, $3, $4, $5, $6, '[]')
       ON CONFLICT (crawl_id, url) DO UPDATE SET state = CASE WHEN crawl_frontier.state = 'queued' THEN 'duplicate' ELSE crawl_frontier.state END
       RETURNING seq`,
      [this.crawlId, row.url, row.seq, row.depth, row.state, row.bucket],
    );
    if (rows[0]?.seq !== row.seq) this.seq = row.seq - 1;
  }

  async countsByBucket(states: readonly FrontierState[]): Promise<Record<FrontierBucket, number>> {
    const counts: Record<FrontierBucket, number> = { seed: 0, hub: 0, detail: 0, explore: 0 };
    const { rows } = await this.ex.query<{ bucket: FrontierBucket; n: number }>(
      'SELECT bucket, count(*) AS n FROM crawl_frontier WHERE crawl_id = $1 AND state = ANY($2::text[]) GROUP BY bucket',
      [this.crawlId, states],
    );
    for (const r of rows) counts[r.bucket] += r.n;
    return counts;
  }

  async applyAuthority(authorityOf: (rowId: number) => number): Promise<void> {
    for (let after = 0; ; ) {
      const { rows } = await this.ex.query<{ id: number; relevance: number; cash: number; authority: number }>(
        "SELECT id, relevance, cash, authority FROM crawl_frontier WHERE crawl_id = $1 AND state = 'queued' AND id > $2 ORDER BY id LIMIT $3",
        [this.crawlId, after, PAGE],
      );
      if (rows.length === 0) return;
      after = rows[rows.length - 1]!.id;
      const ids: number[] = [];
      const authorities: number[] = [];
      const priorities: number[] = [];
      for (const r of rows) {
        const authority = authorityOf(r.id);
        if (authority === r.authority) continue;
        ids.push(r.id);
        authorities.push(authority);
        priorities.push(priorityOf({ relevance: r.relevance, cash: r.cash, authority, intent: this.intent }));
      }
      if (ids.length === 0) continue;
      await this.ex.query(
        `UPDATE crawl_frontier f SET authority = u.authority, priority = u.priority
         FROM unnest($2::bigint[], $3::float8[], $4::float8[]) AS u(id, authority, priority) WHERE f.crawl_id = $1 AND f.id = u.id`,
        [this.crawlId, ids, authorities, priorities],
      );
    }
  }

  async mass(): Promise<number> {
    const { rows } = await this.ex.query<{ mass: number | null }>('SELECT sum(history + cash) AS mass FROM crawl_frontier WHERE crawl_id = $1', [this.crawlId]);
    return rows[0]?.mass ?? 0;
  }

  async edgeIds(weights: Readonly<Record<LinkRegion, number>>): Promise<EdgeIds> {
    const { rows } = await this.ex.query<{ f: number; t: number; region: LinkRegion }>(
      `SELECT f.id AS f, t.id AS t, e.region FROM crawl_edges e
         JOIN crawl_frontier f ON f.crawl_id = e.crawl_id AND f.url = e.from_url
         JOIN crawl_frontier t ON t.crawl_id = e.crawl_id AND t.url = e.to_url
       WHERE e.crawl_id = $1`,
      [this.crawlId],
    );
    return { from: rows.map((r) => r.f), to: rows.map((r) => r.t), weight: rows.map((r) => weights[r.region]) };
  }

  async totals(): Promise<{ nodes: number; fetched: number; banked: number }> {
    const { rows } = await this.ex.query<{ nodes: number; fetched: number; banked: number }>(
      `SELECT count(*) AS nodes, count(*) FILTER (WHERE state = 'done') AS fetched, coalesce(sum(history + cash) FILTER (WHERE state = 'done'), 0) AS banked
       FROM crawl_frontier WHERE crawl_id = $1 AND state NOT IN ('duplicate', 'seen')`,
      [this.crawlId],
    );
    return rows[0]!;
  }

  async heaviest(limit: number): Promise<{ url: string; weight: number; inlinks: number }[]> {
    const { rows } = await this.ex.query<{ url: string; weight: number; inlinks: number }>(
      // COLLATE "C": ties by URL in byte order, as SQLite orders text.
      `SELECT url, history + cash AS weight, inlinks FROM crawl_frontier WHERE crawl_id = $1 AND state NOT IN ('duplicate', 'seen')
       ORDER BY weight DESC, url COLLATE "C" ASC LIMIT $2`,
      [this.crawlId, limit],
    );
    return rows;
  }

  async urlsOf(rowIds: readonly number[]): Promise<Map<number, string>> {
    if (rowIds.length === 0) return new Map();
    const { rows } = await this.ex.query<{ id: number; url: string }>('SELECT id, url FROM crawl_frontier WHERE crawl_id = $1 AND id = ANY($2::bigint[])', [this.crawlId, [...rowIds]]);
    return new Map(rows.map((r) => [r.id, r.url]));
  }

  /** A page of URLs at a time, by id: memory stays bounded whatever the frontier's size. */
  async forEachUrl(visit: (rowId: number, url: string) => void): Promise<void> {
    for (let after = 0; ; ) {
      const { rows } = await this.ex.query<{ id: number; url: string }>('SELECT id, url FROM crawl_frontier WHERE crawl_id = $1 AND id > $2 ORDER BY id LIMIT $3', [
        this.crawlId,
        after,
        PAGE,
      ]);
      if (rows.length === 0) return;
      for (const r of rows) visit(r.id, r.url);
      after = rows[rows.length - 1]!.id;
    }
  }

  /**
   * New rows in one statement; their ids by URL. A row another writer inserted meanwhile (none
   * should: one runner holds a crawl) is left as it is, and its id comes back all the same. Known rows
   * relinked by the same batch are written by the same statement (a data-modifying WITH), or alone
   * when nothing is new: one round trip either way.
   */
  private async insertRows(rows: readonly Omit<FrontierRow, 'id'>[], relinks: readonly FrontierRow[] = []): Promise<Map<string, number>> {
    if (rows.length === 0 && relinks.length === 0) return new Map();
    const relink = (first: number) =>
      `UPDATE crawl_frontier f SET inlinks = u.inlinks, anchors = u.anchors::jsonb, cash = u.cash, relevance = u.relevance, bucket = u.bucket, depth = u.depth, priority = u.priority
       FROM unnest($${first}::bigint[], $${first + 1}::int[], $${first + 2}::text[], $${first + 3}::float8[], $${first + 4}::float8[], $${first + 5}::text[], $${first + 6}::int[], $${first + 7}::float8[])
         AS u(id, inlinks, anchors, cash, relevance, bucket, depth, priority)
       WHERE f.crawl_id = $1 AND f.id = u.id`;
    const relinkValues = [
      relinks.map((r) => r.id),
      relinks.map((r) => r.inlinks),
      relinks.map((r) => JSON.stringify(r.anchors)),
      relinks.map((r) => r.cash),
      relinks.map((r) => r.relevance),
      relinks.map((r) => r.bucket),
      relinks.map((r) => r.depth),
      relinks.map((r) => r.priority),
    ];
    if (rows.length === 0) {
      await this.ex.query(relink(2), [this.crawlId, ...relinkValues]);
      return new Map();
    }
    const column = <K extends keyof Omit<FrontierRow, 'id'>>(key: K) => rows.map((r) => r[key]);
    const { rows: inserted } = await this.ex.query<{ id: number; url: string }>(
      `${relinks.length > 0 ? `WITH relinked AS (${relink(15)}) ` : ''}INSERT INTO crawl_frontier (crawl_id, url, seq, depth, state, bucket, relevance, cash, history, authority, priority, inlinks, anchors, context)
       SELECT $1, u.url, u.seq, u.depth, u.state, u.bucket, u.relevance, u.cash, u.history, u.authority, u.priority, u.inlinks, u.anchors::jsonb, u.context
       FROM unnest($2::text[], $3::int[], $4::int[], $5::text[], $6::text[], $7::float8[], $8::float8[], $9::float8[], $10::float8[], $11::float8[], $12::int[], $13::text[], $14::text[])
         AS u(url, seq, depth, state, bucket, relevance, cash, history, authority, priority, inlinks, anchors, context)
       ON CONFLICT (crawl_id, url) DO UPDATE SET url = excluded.url
       RETURNING id, url`,
      [
        this.crawlId,
        column('url'),
        column('seq'),
        column('depth'),
        column('state'),
        column('bucket'),
        column('relevance'),
        column('cash'),
        column('history'),
        column('authority'),
        column('priority'),
        column('inlinks'),
        rows.map((r) => JSON.stringify(r.anchors)),
        column('context'),
        ...(relinks.length > 0 ? relinkValues : []),
      ],
    );
    return new Map(inserted.map((r) => [r.url, r.id]));
  }

  /** Discovery order; one runner owns a crawl at a time (the job lease), so the counter lives here. */
  private async nextSeq(): Promise<number> {
    if (this.seq === undefined) {
      const { rows } = await this.ex.query<{ seq: number | null }>('SELECT max(seq) AS seq FROM crawl_frontier WHERE crawl_id = $1', [this.crawlId]);
      this.seq ??= rows[0]?.seq ?? 0;
    }
    this.seq += 1;
    return this.seq;
  }
}
