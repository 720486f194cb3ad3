import type { EngineContext } from '../context.js';
import type { FetchedPage, ProxyTier } from './types.js';

/** Reads and writes the global cache (the store's web-cache port); ages are measured on the engine clock. */
export class WebCache {
  constructor(private readonly ctx: EngineContext) {}

  /** A copy no older than maxAgeSeconds, marked fromCache, or null. */
  async get(url: string, maxAgeSeconds: number, tier: ProxyTier): Promise<FetchedPage | null> {
    const cached = await this.ctx.store.webCache.get(url);
    if (!cached) return null;
    if (this.ctx.clock.now().getTime() - cached.fetchedAt > maxAgeSeconds * 1000) return null;
    return { ...cached, fromCache: true, tier, elapsedMs: 0 };
  }

  /**
   * Stores only what a later read could serve: a successful answer (an error page must not be
   * served for a day) with a readable body under the size cap. Binary answers carry no body, so
   * a copy of one would save nothing but the request.
   */
  async put(page: FetchedPage): Promise<void> {
    if (!this.servable(page)) return;
    await this.ctx.store.webCache.put({
      requestedUrl: page.requestedUrl,
      url: page.url,
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
    });
  }

  private servable(page: FetchedPage): boolean {
    if (page.error || page.status < 200 || page.status >= 300) return false;
    return page.body !== null && page.kind !== 'binary' && page.bytes <= this.ctx.options.fetchLimits.maxBodyBytes;
  }
}
