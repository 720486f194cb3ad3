import { parseHtml } from '../html/parse.js';
import { normalizeUrl } from '../html/url.js';
import { junkReason, looksLikeHub } from '../crawl/url-rules.js';
import type { PageFetcher } from '../web/types.js';
import type { Candidate, UrlCollector } from './collect.js';

/** Pages read at once during discovery; politeness per host still spaces them. */
const IN_FLIGHT = 4;

export interface Discovery {
  candidates: Candidate[];
  /** The start page's fetch failed: with no sitemap either, the map has nothing to stand on. */
  startFailed: { status: number; code: string; message: string } | null;
}

/**
 * Link discovery for sites whose sitemaps list little or nothing: reads the start page and then
 * up to `maxPages - 1` more pages of the site, listing pages (hubs) first since they link most of
 * a site, junk (login, cart, print, binary files) never fetched. Each link read counts toward the
 * map whether or not its page is read.
 */
export async function discoverLinks(fetcher: PageFetcher, start: string, collector: UrlCollector, maxPages: number, signal?: AbortSignal): Promise<Discovery> {
  const candidates: Candidate[] = [];
  const queued = new Set<string>([start]);
  const hubs: string[] = [];
  const others: string[] = [];
  let startFailed: Discovery['startFailed'] = null;
  let read = 0;

  const visit = async (url: string, isStart: boolean): Promise<void> => {
    const page = await fetcher.fetch({ url, signal });
    if (page.error || page.status >= 400 || page.kind !== 'html' || page.body === null) {
      if (isStart) startFailed = { status: page.status, code: page.error?.code ?? 'http_error', message: page.error?.message ?? `HTTP ${page.status}` };
      return;
    }
    collector.stats.discovery_pages++;
    const self = collector.accept(page.url, page.url, null, 'links');
    if (self) candidates.push(self);
    const parsed = parseHtml(page.body, page.url);
    for (const link of parsed.links) {
      collector.stats.discovered_urls++;
      const url = normalizeUrl(link.url);
      // Sitemaps list pages on purpose; links also lead to sign-in, cart, share and print variants, which are no pages of the site.
      if (url && junkReason(url)) {
        collector.stats.filtered++;
        continue;
      }
      const candidate = collector.accept(link.url, page.url, null, 'links', link.text);
      if (candidate) candidates.push(candidate);
      // Pages are followed even when a filter drops them from the map: a hub the patterns exclude still links to pages they keep.
      const target = url && collector.onSite(url) ? url : null;
      if (!target || link.nofollow || queued.has(target)) continue;
      queued.add(target);
      (looksLikeHub(target, link.rel.includes('next') || target === parsed.nextPage) ? hubs : others).push(target);
    }
  };

  if (maxPages > 0) {
    await visit(start, true);
    read = 1;
  }
  while (read < maxPages && (hubs.length > 0 || others.length > 0) && !signal?.aborted) {
    const batch: string[] = [];
    while (batch.length < Math.min(IN_FLIGHT, maxPages - read) && (hubs.length > 0 || others.length > 0)) batch.push((hubs.shift() ?? others.shift())!);
    read += batch.length;
    await Promise.all(batch.map((url) => visit(url, false)));
  }
  return { candidates, startFailed };
}
