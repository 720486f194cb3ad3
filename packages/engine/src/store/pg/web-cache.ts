import type { CachedPage, WebCachePort } from '../ports/web-cache.js';
import type { PgExecutor } from './executor.js';

/** The global page cache on PostgreSQL: one row per URL, the last writer's copy kept. */
export class PgWebCache implements WebCachePort {
  constructor(private readonly ex: PgExecutor) {}

  async get(requestedUrl: string): Promise<CachedPage | undefined> {
    const { rows } = await this.ex.query<CachedPage>(
      `SELECT url AS "requestedUrl", final_url AS url, redirects, fetched_at AS "fetchedAt", status, headers, content_type AS "contentType",
              kind, charset, canonical_url AS "canonicalUrl", body, bytes
         FROM web_cache WHERE url = $1`,
      [requestedUrl],
    );
    return rows[0];
  }

  async put(p: CachedPage): Promise<void> {
    await this.ex.query(
      `INSERT INTO web_cache (url, final_url, redirects, fetched_at, status, headers, content_type, kind, charset, canonical_url, body, bytes)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
       ON CONFLICT (url) DO UPDATE SET
         final_url = excluded.final_url, redirects = excluded.redirects, fetched_at = excluded.fetched_at,
         status = excluded.status, headers = excluded.headers, content_type = excluded.content_type,
         kind = excluded.kind, charset = excluded.charset, canonical_url = excluded.canonical_url,
         body = excluded.body, bytes = excluded.bytes`,
      // jsonb parameters go as JSON text: node-postgres would send a JS array as a PostgreSQL array.
      [p.requestedUrl, p.url, JSON.stringify(p.redirects), p.fetchedAt, p.status, JSON.stringify(p.headers), p.contentType, p.kind, p.charset, p.canonicalUrl, p.body, p.bytes],
    );
  }
}
