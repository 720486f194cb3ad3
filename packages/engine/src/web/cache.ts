import type { EngineContext } from '../context.js';
import type { FetchedPage, ProxyTier } from './types.js';

/** A web_cache row as SQLite returns it: redirects and headers still JSON text. */
interface RawRow {
  finalUrl: string;
  redirects: string;
  fetchedAt: number;
  status: number;
  headers: string;
  contentType: string;
  kind: FetchedPage['kind'];
  charset: string | null;
  canonicalUrl: string | null;
  body: string | null;
  bytes: number;
}

/**
 * Reads and writes the global cache; ages are measured on the engine clock. Both statements are
 * prepared once per engine: every crawled page is written here, and building the write through
 * the query builder per page was a visible share of a crawl's CPU.
 */
export class WebCache {
  private readonly q;

  constructor(private readonly ctx: EngineContext) {
    this.q = {
      get: ctx.sqlite.prepare(
        `SELECT final_url AS finalUrl, redirects, fetched_at AS fetchedAt, status, headers, content_type AS contentType,
                kind, charset, canonical_url AS canonicalUrl, body, bytes
           FROM web_cache WHERE url = ?`,
      ),
      put: ctx.sqlite.prepare(
        `INSERT INTO web_cache (url, final_url, redirects, fetched_at, status, headers, content_type, kind, charset, canonical_url, body, bytes)
         VALUES (@url, @finalUrl, @redirects, @fetchedAt, @status, @headers, @contentType, @kind, @charset, @canonicalUrl, @body, @bytes)
         ON CONFLICT (url) DO UPDATE SET
           final_url = excluded.final_url, redirects = excluded.redirects, fetched_at = excluded.fetched_at,
           status = excluded.status, headers = excluded.headers, content_type = excluded.content_type,
           kind = excluded.kind, charset = excluded.charset, canonical_url = excluded.canonical_url,
           body = excluded.body, bytes = excluded.bytes`,
      ),
    };
  }

  /** A copy no older than maxAgeSeconds, marked fromCache, or null. */
  get(url: string, maxAgeSeconds: number, tier: ProxyTier): FetchedPage | null {
    const row = this.q.get.get(url) as RawRow | undefined;
    if (!row) return null;
    if (this.ctx.clock.now().getTime() - row.fetchedAt > maxAgeSeconds * 1000) return null;
    return {
      requestedUrl: url,
      url: row.finalUrl,
      redirects: JSON.parse(row.redirects) as string[],
      status: row.status,
      contentType: row.contentType,
      headers: JSON.parse(row.headers) as Record<string, string>,
      body: row.body,
      kind: row.kind,
      bytes: row.bytes,
      charset: row.charset,
      canonicalUrl: row.canonicalUrl,
      fromCache: true,
      tier,
      fetchedAt: row.fetchedAt,
      elapsedMs: 0,
    };
  }

  /**
   * Stores only what a later read could serve: a successful answer (an error page must not be
   * served for a day) with a readable body under the size cap. Binary answers carry no body, so
   * a copy of one would save nothing but the request.
   */
  put(page: FetchedPage): void {
    if (!this.servable(page)) return;
    this.q.put.run({
      url: page.requestedUrl,
      finalUrl: page.url,
      redirects: JSON.stringify(page.redirects),
      fetchedAt: page.fetchedAt,
      status: page.status,
      headers: JSON.stringify(page.headers),
      contentType: page.contentType,
      kind: page.kind,
      charset: page.charset,
      canonicalUrl: page.canonicalUrl ?? null,
      body: page.body,
      bytes: page.bytes,
    });
  }

  private servable(page: FetchedPage): boolean {
    if (page.error || page.status < 200 || page.status >= 300) return false;
    return page.body !== null && page.kind !== 'binary' && page.bytes <= this.ctx.options.fetchLimits.maxBodyBytes;
  }
}
