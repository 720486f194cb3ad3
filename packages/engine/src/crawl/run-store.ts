import type Database from 'better-sqlite3';
import type { crawlDocuments, crawls } from '../store/sqlite/tables/crawl.js';

type CrawlRow = typeof crawls.$inferSelect;
type DocumentRow = typeof crawlDocuments.$inferInsert;

/** What a running crawl reads of its own row before each page. */
export type RunState = Pick<CrawlRow, 'status' | 'pagesFetched' | 'pagesFailed' | 'pagesCached' | 'pricePerPage' | 'reservationId' | 'lastFailure'>;

/** A stored document beside its frontier node, for the score refresh. */
export interface DocumentNode {
  url: string;
  importance: number;
  hubScore: number;
  authorityScore: number;
  inlinks: number;
  outlinks: number;
  anchorCount: number;
  /** The frontier row id; null when the document's URL has no frontier row. */
  node: number | null;
  weight: number;
  nodeInlinks: number;
  /** The node's anchors as stored (JSON text). */
  nodeAnchors: string;
  nodeAnchorCount: number;
}

export interface DocumentScores {
  importance: number;
  hubScore: number;
  authorityScore: number;
  inlinks: number;
  outlinks: number;
  /** JSON text, written as it is. */
  anchors: string;
}

/**
 * The crawl row and document statements of one run, prepared once: a page costs a handful of
 * statement executions, none of them built or prepared again.
 */
export class RunStore {
  private readonly q;

  constructor(
    sqlite: Database.Database,
    private readonly crawlId: string,
  ) {
    const p = (source: string) => sqlite.prepare(source);
    this.q = {
      state: p(
        'SELECT status, pages_fetched AS pagesFetched, pages_failed AS pagesFailed, pages_cached AS pagesCached, price_per_page AS pricePerPage, reservation_id AS reservationId, last_failure AS lastFailure FROM crawls WHERE id = ?',
      ),
      failed: p('UPDATE crawls SET pages_failed = pages_failed + 1, last_failure = ? WHERE id = ?'),
      skipped: p('UPDATE crawls SET pages_skipped = pages_skipped + 1 WHERE id = ?'),
      fingerprints: p("SELECT json_extract(metadata, '$.content_fingerprint') AS f FROM crawl_documents WHERE crawl_id = ?").pluck(),
      filtered: p('UPDATE crawls SET pages_filtered = pages_filtered + 1 WHERE id = ?'),
      fetched: p('UPDATE crawls SET pages_fetched = pages_fetched + 1, credits_used = credits_used + ?, pages_cached = pages_cached + ? WHERE id = ?'),
      insertDocument: p(
        `INSERT INTO crawl_documents (crawl_id, url, seq, final_url, status_code, content_type, depth, title, description, language, published_date, text, markdown, links, metadata, extracted_data, classification, summary, from_cache, credits, inlinks, anchors, fetched_at)
         VALUES (@crawlId, @url, @seq, @finalUrl, @statusCode, @contentType, @depth, @title, @description, @language, @publishedDate, @text, @markdown, @links, @metadata, @extractedData, @classification, @summary, @fromCache, @credits, @inlinks, @anchors, @fetchedAt)
         ON CONFLICT DO NOTHING`,
      ),
      documentNodes: p(
        `SELECT d.url, d.importance, d.hub_score AS hubScore, d.authority_score AS authorityScore, d.inlinks, d.outlinks, json_array_length(d.anchors) AS anchorCount,
                f.rowid AS node, coalesce(f.history + f.cash, 0) AS weight, coalesce(f.inlinks, 0) AS nodeInlinks, coalesce(f.anchors, '[]') AS nodeAnchors,
                coalesce(json_array_length(f.anchors), 0) AS nodeAnchorCount
         FROM crawl_documents d LEFT JOIN crawl_frontier f ON f.crawl_id = d.crawl_id AND f.url = d.url
         WHERE d.crawl_id = ?`,
      ),
      setScores: p(
        'UPDATE crawl_documents SET importance = @importance, hub_score = @hubScore, authority_score = @authorityScore, inlinks = @inlinks, outlinks = @outlinks, anchors = @anchors WHERE crawl_id = @crawlId AND url = @url',
      ),
      summaries: p(
        `SELECT d.url, d.title, d.text, d.summary FROM crawl_documents d LEFT JOIN crawl_frontier f ON f.crawl_id = d.crawl_id AND f.url = d.url
         WHERE d.crawl_id = ? ORDER BY coalesce(f.history + f.cash, 0) DESC, d.rowid ASC`,
      ),
    };
  }

  state(): RunState {
    return this.q.state.get(this.crawlId) as RunState;
  }

  countFailed(lastFailure: string): void {
    this.q.failed.run(lastFailure, this.crawlId);
  }

  countSkipped(): void {
    this.q.skipped.run(this.crawlId);
  }

  countFiltered(): void {
    this.q.filtered.run(this.crawlId);
  }

  /** Content fingerprints of the pages this crawl stored so far (a resumed run starts from them). */
  fingerprints(): Set<string> {
    return new Set((this.q.fingerprints.all(this.crawlId) as (string | null)[]).filter((f): f is string => f !== null));
  }

  countFetched(credits: number, fromCache: boolean): void {
    this.q.fetched.run(credits, fromCache ? 1 : 0, this.crawlId);
  }

  insertDocument(doc: Omit<DocumentRow, 'crawlId' | 'importance' | 'hubScore' | 'authorityScore' | 'outlinks'>): void {
    this.q.insertDocument.run({
      ...doc,
      crawlId: this.crawlId,
      title: doc.title ?? null,
      description: doc.description ?? null,
      language: doc.language ?? null,
      publishedDate: doc.publishedDate ?? null,
      links: JSON.stringify(doc.links),
      metadata: JSON.stringify(doc.metadata),
      extractedData: doc.extractedData ? JSON.stringify(doc.extractedData) : null,
      classification: doc.classification ? JSON.stringify(doc.classification) : null,
      summary: doc.summary ?? null,
      fromCache: doc.fromCache ? 1 : 0,
      inlinks: doc.inlinks ?? 0,
      anchors: JSON.stringify(doc.anchors),
    });
  }

  /** Bounded by the crawl's documents (max_pages), not by its frontier. */
  documentNodes(): DocumentNode[] {
    return this.q.documentNodes.all(this.crawlId) as DocumentNode[];
  }

  setScores(url: string, scores: DocumentScores): void {
    this.q.setScores.run({ ...scores, crawlId: this.crawlId, url });
  }

  /** Most important first, for the crawl summary. */
  documentsForSummary(): { url: string; title: string | null; text: string; summary: string | null }[] {
    return this.q.summaries.all(this.crawlId) as { url: string; title: string | null; text: string; summary: string | null }[];
  }
}
