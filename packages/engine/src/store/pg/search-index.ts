import type { PgExecutor } from './executor.js';
import type { DomainFilter, IndexedPage, IndexedPageRecord, IndexMatch, PageDetail, RankedPage, SearchIndexPort, Visibility } from '../ports/search.js';

/** ts_rank_cd weights for D, C, B, A: body (C) counts a fifth of title and anchors (A), headings and URL (B) two fifths. */
const WEIGHTS = '{0.05, 0.2, 0.4, 1.0}';
/** Like FTS5's snippet(…, '…', 24): one fragment of up to 24 words, no markup. */
const HEADLINE = 'StartSel="", StopSel="", MaxWords=24, MinWords=8, ShortWord=2, MaxFragments=1, FragmentDelimiter=" … "';

/**
 * The local full-text index on PostgreSQL: `search_pages` plus `search_fts`, whose weighted
 * `document` tsvector the database computes (tables/search.ts). As on SQLite, ranking reads ids only
 * and snippets (ts_headline, the costly part) are made for the rows kept; every read is filtered by
 * visibility in SQL.
 */
export class PgSearchIndex implements SearchIndexPort {
  constructor(private readonly ex: PgExecutor) {}

  /**
   * Upserts each page's copy of its scope, the group in one transaction (two servers indexing one URL at
   * once cannot collide); a page is one statement, its row and its text together.
   */
  put(pages: readonly IndexedPageRecord[]): Promise<number[]> {
    return this.ex.atomically(async () => {
      const ids: number[] = [];
      for (const page of pages) {
        const { rows } = await this.ex.query<{ id: number }>(
          `WITH page AS (
             INSERT INTO search_pages (url, scope, owner_user_id, crawl_id, domain, title, description, schema_types, published_date, language, fetched_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
             ON CONFLICT (url, scope) DO UPDATE SET owner_user_id = EXCLUDED.owner_user_id, crawl_id = EXCLUDED.crawl_id, domain = EXCLUDED.domain,
               title = EXCLUDED.title, description = EXCLUDED.description, schema_types = EXCLUDED.schema_types,
               published_date = EXCLUDED.published_date, language = EXCLUDED.language, fetched_at = EXCLUDED.fetched_at
             RETURNING id)
           INSERT INTO search_fts (page_id, title, headings, body, url_tokens, anchors) SELECT id, $6, $12, $13, $14, $15 FROM page
           ON CONFLICT (page_id) DO UPDATE SET title = EXCLUDED.title, headings = EXCLUDED.headings, body = EXCLUDED.body,
             url_tokens = EXCLUDED.url_tokens, anchors = EXCLUDED.anchors
           RETURNING page_id AS id`,
          [
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
            page.headings.join('\n'),
            page.body,
            page.urlTokens,
            page.anchorTexts.join('\n'),
          ],
        );
        ids.push(rows[0]!.id);
      }
      return ids;
    });
  }

  async removeCrawl(crawlId: string): Promise<number> {
    const { rowCount } = await this.ex.query('DELETE FROM search_pages WHERE crawl_id = $1', [crawlId]);
    return rowCount ?? 0;
  }

  /**
   * Matching: every term (`all`) or any term or optional term (`any`). Ranking: any term or optional
   * term, so pages that also hold the optional terms rank higher without being required to.
   */
  async rank(q: IndexMatch): Promise<RankedPage[]> {
    if (q.terms.length === 0) return [];
    const params: unknown[] = [];
    const param = (value: unknown) => `$${params.push(value)}`;
    const lexemes = (words: string[]) => words.map((w) => `plainto_tsquery('english', ${param(w)})`);
    const required = lexemes(q.terms);
    const optional = lexemes(q.optionalTerms);
    const matchQuery = q.mode === 'all' ? required.join(' && ') : [...required, ...optional].join(' || ');
    const rankQuery = [...required, ...optional].join(' || ');
    const domainClause = (f: DomainFilter) => {
      const bare = param(f.domain);
      const sub = param(`%.${f.domain}`);
      const ported = f.anyPort ? ` OR p.domain LIKE ${param(`${f.domain}:%`)} OR p.domain LIKE ${param(`%.${f.domain}:%`)}` : '';
      return `(p.domain = ${bare} OR p.domain LIKE ${sub}${ported})`;
    };
    const visibility = `(p.owner_user_id IS NULL OR p.owner_user_id = ${param(q.visibility.userId)} OR p.crawl_id = ANY(${param(q.visibility.sharedCrawlIds)}::text[]))`;
    const include = q.includeDomains.length > 0 ? `AND (${q.includeDomains.map(domainClause).join(' OR ')})` : '';
    const exclude = q.excludeDomains.map((f) => `AND NOT ${domainClause(f)}`).join(' ');
    const { rows } = await this.ex.query<RankedPage>(
      `SELECT p.id, p.url, ts_rank_cd('${WEIGHTS}'::float4[], f.document, (${rankQuery})) AS rank
       FROM search_fts f JOIN search_pages p ON p.id = f.page_id
       WHERE f.document @@ (${matchQuery}) AND ${visibility} ${include} ${exclude}
       ORDER BY rank DESC, p.id
       LIMIT ${param(q.limit)}`,
      params,
    );
    return rows;
  }

  /** ts_headline (the costly part) only for the rows kept, around any of the match's terms. */
  async details(ids: readonly number[], q: IndexMatch): Promise<PageDetail[]> {
    if (ids.length === 0) return [];
    const params: unknown[] = [ids, ...q.terms, ...q.optionalTerms];
    const headlineQuery = params
      .slice(1)
      .map((_, i) => `plainto_tsquery('english', $${i + 2})`)
      .join(' || ');
    const { rows } = await this.ex.query<{ id: number; domain: string; title: string; description: string; schema_types: string[]; published_date: string | null; snip: string }>(
      `SELECT p.id, p.domain, p.title, p.description, p.schema_types, p.published_date,
              ts_headline('english', f.body, (${headlineQuery}), '${HEADLINE}') AS snip
       FROM search_fts f JOIN search_pages p ON p.id = f.page_id
       WHERE p.id = ANY($1::bigint[])`,
      params,
    );
    return rows.map((d) => ({ id: d.id, domain: d.domain, title: d.title, description: d.description, snippet: d.snip, schemaTypes: d.schema_types, publishedDate: d.published_date }));
  }

  async page(url: string, visibility: Visibility): Promise<IndexedPage | null> {
    const { rows } = await this.ex.query<{ url: string; title: string; published_date: string | null; fetched_at: string; body: string }>(
      `SELECT p.url, p.title, p.published_date, p.fetched_at, f.body
       FROM search_pages p JOIN search_fts f ON f.page_id = p.id
       WHERE p.url = $1 AND (p.owner_user_id IS NULL OR p.owner_user_id = $2 OR p.crawl_id = ANY($3::text[]))
       ORDER BY (p.owner_user_id IS NULL), p.fetched_at DESC
       LIMIT 1`,
      [url, visibility.userId, visibility.sharedCrawlIds],
    );
    const row = rows[0];
    return row ? { url: row.url, title: row.title, text: row.body, publishedDate: row.published_date, fetchedAt: row.fetched_at } : null;
  }

  async counts(userId: string): Promise<{ own_pages: number; public_pages: number }> {
    const { rows } = await this.ex.query<{ own_pages: number; public_pages: number }>(
      `SELECT (SELECT count(*) FROM search_pages WHERE owner_user_id = $1) AS own_pages,
              (SELECT count(*) FROM search_pages WHERE owner_user_id IS NULL) AS public_pages`,
      [userId],
    );
    return rows[0]!;
  }
}
