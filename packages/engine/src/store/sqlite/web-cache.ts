import type Database from 'better-sqlite3';
import type { CachedPage } from '../ports/web-cache.js';

/** A web_cache row as SQLite returns it: redirects and headers still JSON text. */
interface RawRow extends Omit<CachedPage, 'redirects' | 'headers'> {
  redirects: string;
  headers: string;
}

/**
 * Both statements are prepared once per engine: every crawled page is written here, and building
 * the write through the query builder per page was a visible share of a crawl's CPU.
 */
export class SqliteWebCache {
  private readonly q;

  constructor(sqlite: Database.Database) {
    this.q = {
      get: sqlite.prepare<[string], RawRow>(
        `SELECT url AS requestedUrl, final_url AS url, redirects, fetched_at AS fetchedAt, status, headers,
                content_type AS contentType, kind, charset, canonical_url AS canonicalUrl, body, bytes
           FROM web_cache WHERE url = ?`,
      ),
      put: sqlite.prepare(
        `INSERT INTO web_cache (url, final_url, redirects, fetched_at, status, headers, content_type, kind, charset, canonical_url, body, bytes)
         VALUES (@requestedUrl, @url, @redirects, @fetchedAt, @status, @headers, @contentType, @kind, @charset, @canonicalUrl, @body, @bytes)
         ON CONFLICT (url) DO UPDATE SET
           final_url = excluded.final_url, redirects = excluded.redirects, fetched_at = excluded.fetched_at,
           status = excluded.status, headers = excluded.headers, content_type = excluded.content_type,
           kind = excluded.kind, charset = excluded.charset, canonical_url = excluded.canonical_url,
           body = excluded.body, bytes = excluded.bytes`,
      ),
    };
  }

  get(requestedUrl: string): CachedPage | undefined {
    const row = this.q.get.get(requestedUrl);
    if (!row) return undefined;
    return { ...row, redirects: JSON.parse(row.redirects) as string[], headers: JSON.parse(row.headers) as Record<string, string> };
  }

  put(page: CachedPage): void {
    this.q.put.run({
      requestedUrl: page.requestedUrl,
      url: page.url,
      redirects: JSON.stringify(page.redirects),
      fetchedAt: page.fetchedAt,
      status: page.status,
      headers: JSON.stringify(page.headers),
      contentType: page.contentType,
      kind: page.kind,
      charset: page.charset,
      canonicalUrl: page.canonicalUrl,
      body: page.body,
      bytes: page.bytes,
    });
  }
}
