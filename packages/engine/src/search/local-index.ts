import type Database from 'better-sqlite3';
import { parseInput } from '../core/validate.js';
import { IndexPageInput } from './schemas.js';
import { bareDomain, domainOf, hasPort, queryTerms, urlTokens } from './text.js';

/** BM25 column weights, in the FTS5 column order: title, headings, body, url_tokens, anchors. */
export const FIELD_WEIGHTS = { title: 10, headings: 4, body: 1, url: 3, anchors: 5 } as const;

/** Text kept per page: enough for ranking and snippets, bounded so one huge page cannot bloat the index. */
const MAX_BODY_CHARS = 200_000;

/** Who is asking: their own pages, pages of crawls shared with them, and the public cache. */
export interface Visibility {
  userId: string;
  sharedCrawlIds: string[];
}

export interface IndexQuery {
  query: string;
  limit: number;
  visibility: Visibility;
  includeDomains?: string[];
  excludeDomains?: string[];
  /** Terms that raise a page's rank without being required (session intent additions). */
  optionalTerms?: string[];
}

export interface IndexHit {
  url: string;
  domain: string;
  title: string;
  description: string;
  snippet: string;
  schemaTypes: string[];
  publishedDate: string | null;
  /** -bm25: larger is better. */
  bm25: number;
}

/** One page's copy as the index holds it (text capped at MAX_BODY_CHARS). */
export interface IndexedPage {
  url: string;
  title: string;
  text: string;
  publishedDate: string | null;
  fetchedAt: string;
}

interface RankedRow {
  id: number;
  url: string;
  rank: number;
}

interface DetailRow {
  id: number;
  domain: string;
  title: string;
  description: string;
  schema_types: string;
  published_date: string | null;
  snip: string;
}

/**
 * The local full-text index over SQLite FTS5. Every read is filtered in SQL by visibility,
 * so another tenant's private pages never leave the database.
 */
export class LocalIndex {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly sqlite: Database.Database) {}

  /** Adds or replaces the page copy of one scope (a crawl, a user, or the public cache). */
  upsert(input: IndexPageInput): { id: number; url: string; scope: string } {
    const page = parseInput(IndexPageInput, input, 'index page');
    const scope = page.crawlId ? `crawl:${page.crawlId}` : page.ownerUserId ? `user:${page.ownerUserId}` : 'public';
    const fetchedAt = new Date(page.fetchedAt).toISOString();
    return this.sqlite.transaction(() => {
      const existing = this.stmt('SELECT id FROM search_pages WHERE url = ? AND scope = ?').get(page.url, scope) as { id: number } | undefined;
      if (existing) this.stmt('DELETE FROM search_pages WHERE id = ?').run(existing.id);
      const { lastInsertRowid } = this.stmt(
        `INSERT INTO search_pages (url, scope, owner_user_id, crawl_id, domain, title, description, schema_types, published_date, language, fetched_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        page.url,
        scope,
        page.ownerUserId,
        page.crawlId,
        domainOf(page.url),
        page.title,
        page.description,
        JSON.stringify(page.schemaTypes),
        page.publishedDate,
        page.language,
        fetchedAt,
      );
      this.stmt('INSERT INTO search_fts (rowid, title, headings, body, url_tokens, anchors) VALUES (?, ?, ?, ?, ?, ?)').run(
        lastInsertRowid,
        page.title,
        page.headings.join('\n'),
        page.text.slice(0, MAX_BODY_CHARS),
        urlTokens(page.url),
        page.anchorTexts.join('\n'),
      );
      return { id: Number(lastInsertRowid), url: page.url, scope };
    }).immediate();
  }

  /** Drops every page a crawl indexed (the crawl was deleted); returns how many. */
  removeCrawl(crawlId: string): number {
    return this.stmt('DELETE FROM search_pages WHERE crawl_id = ?').run(crawlId).changes;
  }

  /** Pages matching every query term, then (when fewer than asked) pages matching any, best BM25 first. */
  search(q: IndexQuery): IndexHit[] {
    const terms = queryTerms(q.query);
    if (terms.length === 0) return [];
    const quoted = terms.map((t) => `"${t}"`);
    const optional = (q.optionalTerms ?? []).flatMap(queryTerms).map((t) => `"${t}"`);
    const all = quoted.join(' ');
    // The optional branch matches the same pages as `all` alone, but its extra phrases add to BM25.
    const required = optional.length > 0 ? `(${all}) OR (${all} AND (${optional.join(' OR ')}))` : all;
    const hits = this.run(required, q);
    if (hits.length < q.limit && terms.length > 1) {
      const seen = new Set(hits.map((h) => h.url));
      for (const h of this.run([...quoted, ...optional].join(' OR '), q)) {
        if (hits.length >= q.limit) break;
        if (!seen.has(h.url)) hits.push(h), seen.add(h.url);
      }
    }
    return hits;
  }

  /**
   * The full indexed text of one URL, as the caller may see it: their own copy or a shared
   * crawl's before the public cache, the most recently fetched first. Null when none is visible.
   */
  page(url: string, visibility: Visibility): IndexedPage | null {
    const row = this.stmt(`
      SELECT p.url, p.title, p.published_date, p.fetched_at, f.body
      FROM search_pages p JOIN search_fts f ON f.rowid = p.id
      WHERE p.url = ?
        AND (p.owner_user_id IS NULL OR p.owner_user_id = ? OR p.crawl_id IN (SELECT value FROM json_each(?)))
      ORDER BY (p.owner_user_id IS NULL), p.fetched_at DESC
      LIMIT 1`).get(url, visibility.userId, JSON.stringify(visibility.sharedCrawlIds)) as
      | { url: string; title: string; published_date: string | null; fetched_at: string; body: string }
      | undefined;
    return row ? { url: row.url, title: row.title, text: row.body, publishedDate: row.published_date, fetchedAt: row.fetched_at } : null;
  }

  /** Pages a user owns (their crawls and personal copies) and the size of the public cache. */
  counts(userId: string): { own_pages: number; public_pages: number } {
    const own = this.stmt('SELECT count(*) AS n FROM search_pages WHERE owner_user_id = ?').get(userId) as { n: number };
    const pub = this.stmt('SELECT count(*) AS n FROM search_pages WHERE owner_user_id IS NULL').get() as { n: number };
    return { own_pages: own.n, public_pages: pub.n };
  }

  private run(match: string, q: IndexQuery): IndexHit[] {
    const include = q.includeDomains ?? [];
    const exclude = q.excludeDomains ?? [];
    // A filter without a port ("127.0.0.1") matches the host on any port ("127.0.0.1:8080").
    const domainClause = '(p.domain = ? OR p.domain LIKE ? OR p.domain LIKE ? OR p.domain LIKE ?)';
    // Ranking first, on ids only: SQLite computes every selected column for each match before
    // sorting, so snippets and page fields are read afterwards for the few rows kept.
    const ranked = `
      SELECT p.id, p.url,
             bm25(search_fts, ${FIELD_WEIGHTS.title}, ${FIELD_WEIGHTS.headings}, ${FIELD_WEIGHTS.body}, ${FIELD_WEIGHTS.url}, ${FIELD_WEIGHTS.anchors}) AS rank
      FROM search_fts JOIN search_pages p ON p.id = search_fts.rowid
      WHERE search_fts MATCH ?
        AND (p.owner_user_id IS NULL OR p.owner_user_id = ? OR p.crawl_id IN (SELECT value FROM json_each(?)))
        ${include.length > 0 ? `AND (${include.map(() => domainClause).join(' OR ')})` : ''}
        ${exclude.map(() => `AND NOT ${domainClause}`).join(' ')}
      ORDER BY rank
      LIMIT ?`;
    const domainParams = (list: string[]) =>
      list.map(bareDomain).flatMap((bare) => (hasPort(bare) ? [bare, `%.${bare}`, bare, `%.${bare}`] : [bare, `%.${bare}`, `${bare}:%`, `%.${bare}:%`]));
    const rows = this.stmt(ranked).all(
      match,
      q.visibility.userId,
      JSON.stringify(q.visibility.sharedCrawlIds),
      ...domainParams(include),
      ...domainParams(exclude),
      q.limit * 3,
    ) as RankedRow[];
    // A URL can be visible through several scopes (public cache and an own crawl): keep its best copy.
    const kept = new Map<string, RankedRow>();
    for (const r of rows) {
      if (kept.size >= q.limit) break;
      if (!kept.has(r.url)) kept.set(r.url, r);
    }
    if (kept.size === 0) return [];
    const details = this.stmt(`
      SELECT p.id, p.domain, p.title, p.description, p.schema_types, p.published_date,
             snippet(search_fts, 2, '', '', '…', 24) AS snip
      FROM search_fts JOIN search_pages p ON p.id = search_fts.rowid
      WHERE search_fts MATCH ? AND search_fts.rowid IN (SELECT value FROM json_each(?))`).all(
      match,
      JSON.stringify([...kept.values()].map((r) => r.id)),
    ) as DetailRow[];
    const byId = new Map(details.map((d) => [d.id, d]));
    return [...kept.values()].map((r) => {
      const d = byId.get(r.id)!;
      return {
        url: r.url,
        domain: d.domain,
        title: d.title,
        description: d.description,
        snippet: d.snip,
        schemaTypes: JSON.parse(d.schema_types) as string[],
        publishedDate: d.published_date,
        bm25: -r.rank,
      };
    });
  }

  private stmt(sql: string): Database.Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.sqlite.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }
}
