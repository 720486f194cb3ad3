import { eq } from 'drizzle-orm';
import type { EngineContext } from '../core/context.js';
import { webCache } from './tables.js';
import type { FetchedPage, ProxyTier } from './types.js';

/** Reads and writes the global cache; ages are measured on the engine clock. */
export class WebCache {
  constructor(private readonly ctx: EngineContext) {}

  /** A copy no older than maxAgeSeconds, marked fromCache, or null. */
  get(url: string, maxAgeSeconds: number, tier: ProxyTier): FetchedPage | null {
    const row = this.ctx.db.select().from(webCache).where(eq(webCache.url, url)).get();
    if (!row) return null;
    if (this.ctx.clock.now().getTime() - row.fetchedAt > maxAgeSeconds * 1000) return null;
    return {
      requestedUrl: url,
      url: row.finalUrl,
      redirects: row.redirects,
      status: row.status,
      contentType: row.contentType,
      headers: row.headers,
      body: row.body,
      kind: row.kind as FetchedPage['kind'],
      bytes: row.bytes,
      charset: row.charset,
      canonicalUrl: row.canonicalUrl,
      fromCache: true,
      tier,
      fetchedAt: row.fetchedAt,
      elapsedMs: 0,
    };
  }

  /** Stores successful answers only: an error page must not be served for a day. */
  put(page: FetchedPage): void {
    if (page.error || page.status < 200 || page.status >= 300) return;
    const row = {
      url: page.requestedUrl,
      finalUrl: page.url,
      redirects: page.redirects,
      fetchedAt: page.fetchedAt,
      status: page.status,
      headers: page.headers,
      contentType: page.contentType,
      kind: page.kind,
      charset: page.charset,
      canonicalUrl: page.canonicalUrl ?? null,
      body: page.body,
      bytes: page.bytes,
    };
    this.ctx.db.insert(webCache).values(row).onConflictDoUpdate({ target: webCache.url, set: row }).run();
  }
}
