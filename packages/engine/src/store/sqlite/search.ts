import type Database from 'better-sqlite3';
import { and, count, desc, eq } from 'drizzle-orm';
import type { Db } from './open.js';
import type {
  DomainFilter,
  IndexedPage,
  IndexedPageRecord,
  IndexMatch,
  PageDetail,
  RankedPage,
  SearchJobRecord,
  SearchJobStatus,
  Visibility,
} from '../ports/search.js';
import { searchJobs } from './tables/search.js';

/** Search jobs: today's drizzle statements. */
export class SqliteSearchJobs {
  constructor(private readonly db: Db) {}

  insert(job: SearchJobRecord): void {
    this.db.insert(searchJobs).values(job).run();
  }

  get(id: string): SearchJobRecord | undefined {
    return this.db.select().from(searchJobs).where(eq(searchJobs.id, id)).get();
  }

  list(userId: string, status: SearchJobStatus | undefined, page: { limit: number; offset: number }): { rows: SearchJobRecord[]; total: number } {
    const where = and(eq(searchJobs.userId, userId), status ? eq(searchJobs.status, status) : undefined);
    const rows = this.db.select().from(searchJobs).where(where).orderBy(desc(searchJobs.createdAt), desc(searchJobs.id)).limit(page.limit).offset(page.offset).all();
    const total = this.db.select({ n: count() }).from(searchJobs).where(where).get()!.n;
    return { rows, total };
  }

  update(id: string, fields: Partial<Omit<SearchJobRecord, 'id'>>): void {
    this.db.update(searchJobs).set(fields).where(eq(searchJobs.id, id)).run();
  }

  delete(id: string): void {
    this.db.delete(searchJobs).where(eq(searchJobs.id, id)).run();
  }

  countByStatus(userId: string): Partial<Record<SearchJobStatus, number>> {
    const rows = this.db
      .select({ status: searchJobs.status, n: count() })
      .from(searchJobs)
      .where(eq(searchJobs.userId, userId))
      .groupBy(searchJobs.status)
      .all();
    return Object.fromEntries(rows.map((r) => [r.status, r.n]));
  }
}

/** BM25 column weights, in the FTS5 column order: title, headings, body, url_tokens, anchors. */
const FIELD_WEIGHTS = { title: 10, headings: 4, body: 1, url: 3, anchors: 5 } as const;

/** Only the public cache, the caller's own copies and crawls shared with them. */
const VISIBLE = '(p.owner_user_id IS NULL OR p.owner_user_id = ? OR p.crawl_id IN (SELECT value FROM json_each(?)))';
const DOMAIN = '(p.domain = ? OR p.domain LIKE ? OR p.domain LIKE ? OR p.domain LIKE ?)';

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
 * The local full-text index over SQLite FTS5: `search_pages` plus the `search_fts` table (custom
 * migration) whose rowid is the page's id. Statements are prepared once per SQL text.
 */
export class SqliteSearchIndex {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly sqlite: Database.Database) {}

  /**
   * The pages' rows first, then all their full-text rows: FTS5 writes the terms it holds out as a segment of their own
   * at each statement that opens a savepoint, so a page row inserted after a page's terms wrote those terms out alone.
   */
  put(pages: readonly IndexedPageRecord[]): number[] {
    return this.sqlite
      .transaction(() => {
        // A page given twice in one call replaces its own row made a moment before, which has no full-text row yet.
        const replaced = new Set<number>();
        const ids = pages.map((page) => {
          const existing = this.stmt('SELECT id FROM search_pages WHERE url = ? AND scope = ?').get(page.url, page.scope) as { id: number } | undefined;
          if (existing) {
            this.stmt('DELETE FROM search_pages WHERE id = ?').run(existing.id);
            replaced.add(existing.id);
          }
          const { lastInsertRowid } = this.stmt(
            `INSERT INTO search_pages (url, scope, owner_user_id, crawl_id, domain, title, description, schema_types, published_date, language, fetched_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          ).run(
            page.url,
            page.scope,
            page.ownerUserId,
            page.crawlId,
            page.domain,
            page.title,
            page.description,
            JSON.stringify(page.schemaTypes),
            page.publishedDate,
            page.language,
            page.fetchedAt,
          );
          return Number(lastInsertRowid);
        });
        pages.forEach((page, i) => {
          if (replaced.has(ids[i]!)) return;
          this.stmt('INSERT INTO search_fts (rowid, title, headings, body, url_tokens, anchors) VALUES (?, ?, ?, ?, ?, ?)').run(
            ids[i],
            page.title,
            page.headings.join('\n'),
            page.body,
            page.urlTokens,
            page.anchorTexts.join('\n'),
          );
        });
        return ids;
      })
      .immediate();
  }

  removeCrawl(crawlId: string): number {
    return this.stmt('DELETE FROM search_pages WHERE crawl_id = ?').run(crawlId).changes;
  }

  rank(q: IndexMatch): RankedPage[] {
    // Ranking reads ids only: SQLite computes every selected column for each match before sorting,
    // so snippets and page fields are read afterwards (details) for the few rows kept.
    const ranked = `
      SELECT p.id, p.url,
             bm25(search_fts, ${FIELD_WEIGHTS.title}, ${FIELD_WEIGHTS.headings}, ${FIELD_WEIGHTS.body}, ${FIELD_WEIGHTS.url}, ${FIELD_WEIGHTS.anchors}) AS rank
      FROM search_fts JOIN search_pages p ON p.id = search_fts.rowid
      WHERE search_fts MATCH ? AND ${VISIBLE}
        ${q.includeDomains.length > 0 ? `AND (${q.includeDomains.map(() => DOMAIN).join(' OR ')})` : ''}
        ${q.excludeDomains.map(() => `AND NOT ${DOMAIN}`).join(' ')}
      ORDER BY rank
      LIMIT ?`;
    const rows = this.stmt(ranked).all(
      ftsMatch(q),
      q.visibility.userId,
      JSON.stringify(q.visibility.sharedCrawlIds),
      ...q.includeDomains.flatMap(domainParams),
      ...q.excludeDomains.flatMap(domainParams),
      q.limit,
    ) as RankedPage[];
    // bm25() is smaller for better matches; the port's rank is larger for better ones.
    return rows.map((r) => ({ id: r.id, url: r.url, rank: -r.rank }));
  }

  details(ids: readonly number[], q: IndexMatch): PageDetail[] {
    // snippet() needs the MATCH of the query that found the rows.
    const rows = this.stmt(`
      SELECT p.id, p.domain, p.title, p.description, p.schema_types, p.published_date,
             snippet(search_fts, 2, '', '', '…', 24) AS snip
      FROM search_fts JOIN search_pages p ON p.id = search_fts.rowid
      WHERE search_fts MATCH ? AND search_fts.rowid IN (SELECT value FROM json_each(?))`).all(ftsMatch(q), JSON.stringify(ids)) as DetailRow[];
    return rows.map((d) => ({
      id: d.id,
      domain: d.domain,
      title: d.title,
      description: d.description,
      snippet: d.snip,
      schemaTypes: JSON.parse(d.schema_types) as string[],
      publishedDate: d.published_date,
    }));
  }

  page(url: string, visibility: Visibility): IndexedPage | null {
    const row = this.stmt(`
      SELECT p.url, p.title, p.published_date, p.fetched_at, f.body
      FROM search_pages p JOIN search_fts f ON f.rowid = p.id
      WHERE p.url = ? AND ${VISIBLE}
      ORDER BY (p.owner_user_id IS NULL), p.fetched_at DESC
      LIMIT 1`).get(url, visibility.userId, JSON.stringify(visibility.sharedCrawlIds)) as
      | { url: string; title: string; published_date: string | null; fetched_at: string; body: string }
      | undefined;
    return row ? { url: row.url, title: row.title, text: row.body, publishedDate: row.published_date, fetchedAt: row.fetched_at } : null;
  }

  counts(userId: string): { own_pages: number; public_pages: number } {
    const own = this.stmt('SELECT count(*) AS n FROM search_pages WHERE owner_user_id = ?').get(userId) as { n: number };
    const pub = this.stmt('SELECT count(*) AS n FROM search_pages WHERE owner_user_id IS NULL').get() as { n: number };
    return { own_pages: own.n, public_pages: pub.n };
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

/**
 * The FTS5 query: every term quoted (a phrase of one token, so no term is read as FTS5 syntax).
 * In `all` mode the optional branch matches the same pages as the terms alone, but its extra
 * phrases add to BM25; in `any` mode every term and optional term may match.
 */
function ftsMatch(q: IndexMatch): string {
  const quoted = q.terms.map((t) => `"${t}"`);
  const optional = q.optionalTerms.map((t) => `"${t}"`);
  if (q.mode === 'any') return [...quoted, ...optional].join(' OR ');
  const all = quoted.join(' ');
  return optional.length > 0 ? `(${all}) OR (${all} AND (${optional.join(' OR ')}))` : all;
}

/** The four DOMAIN parameters: the host and its subdomains, on any port when the filter named none. */
function domainParams(f: DomainFilter): string[] {
  const d = f.domain;
  return f.anyPort ? [d, `%.${d}`, `${d}:%`, `%.${d}:%`] : [d, `%.${d}`, d, `%.${d}`];
}
