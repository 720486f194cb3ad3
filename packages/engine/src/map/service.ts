import { WvrError, errors } from '../core/errors.js';
import { parseInput } from '../core/validate.js';
import type { Principal } from '../accounts/schemas.js';
import type { CreditsService } from '../credits/service.js';
import { pricing } from '../credits/pricing.js';
import { normalizeUrl } from '../html/url.js';
import type { WebService } from '../web/service.js';
import { UrlCollector, type Candidate } from './collect.js';
import { discoverLinks, type Discovery } from './discover.js';
import { MapRequestBody, type MapResult, type MapSitemapReport } from './schemas.js';
import { walkSitemaps } from './sitemaps.js';

/** Below this many sitemap URLs (or `limit`, when smaller) link discovery runs too: the sitemap is likely partial. */
export const SITEMAP_ENOUGH = 100;

export type MapWeb = Pick<WebService, 'fetch' | 'robots'>;

export interface SitemapSeedOptions {
  limit: number;
  urlPatterns?: readonly string[] | undefined;
  excludePatterns?: readonly string[] | undefined;
  signal?: AbortSignal;
}

/**
 * `POST /v1/map`: a site's URLs in one call, from its sitemaps (robots.txt Sitemap lines, nested
 * indexes, gzipped files) and, when those list little, from the links of a few of its pages.
 * Fetches no page it does not need: a 50,000-URL site costs its sitemap files, not its pages.
 */
export class MapService {
  constructor(
    private readonly web: MapWeb,
    private readonly credits: CreditsService,
  ) {}

  async site(principal: Principal, input: unknown, signal?: AbortSignal): Promise<MapResult> {
    const body = parseInput(MapRequestBody, input);
    const started = performance.now();
    const price = pricing.map();
    // Fail before fetching when the caller cannot pay; charge only once the map was made.
    if (!(await this.credits.canAfford(principal.userId, price.credits)).would_succeed) {
      throw errors.insufficientCredits(price.credits, await this.credits.balance(principal.userId), { details: { operation: 'map' } });
    }
    const start = normalizeUrl(body.url)!;
    const collector = new UrlCollector({
      start,
      includeSubdomains: body.include_subdomains,
      urlPatterns: body.url_patterns,
      excludePatterns: body.exclude_patterns,
      search: body.search,
    });

    let fromSitemaps: Candidate[] = [];
    let reports: MapSitemapReport[] = [];
    if (body.sitemap !== 'skip') {
      const walk = await this.readSitemaps(start, collector, body.limit, signal);
      fromSitemaps = walk.candidates;
      reports = walk.reports;
    }
    let discovery: Discovery = { candidates: [], startFailed: null };
    if (body.sitemap === 'skip' || (body.sitemap === 'include' && fromSitemaps.length < Math.min(body.limit, SITEMAP_ENOUGH))) {
      discovery = await discoverLinks(this.web, start, collector, body.max_discovery_pages, signal);
    }
    if (fromSitemaps.length === 0 && discovery.candidates.length === 0) {
      // Nothing found because the site could not be reached at all is the caller's problem to hear about, not an empty map.
      const refused = reports.find((r) => r.error?.startsWith('ssrf_blocked'));
      if (discovery.startFailed) throw this.unreachable(start, discovery.startFailed);
      if (refused) throw this.unreachable(start, { status: 0, code: 'ssrf_blocked', message: refused.error!.replace(/^ssrf_blocked: /, '') });
    }

    const { urls, truncated } = await this.finish(collector, [...fromSitemaps, ...discovery.candidates], body.limit, body.search !== undefined);
    const credits = await this.credits.charge(principal.userId, price, 'map');
    return {
      url: start,
      urls,
      truncated: truncated || reports.some((r) => r.status === 'skipped' && r.error?.startsWith('not needed')),
      stats: { ...collector.stats, elapsed_ms: Math.round(performance.now() - started) },
      sitemaps: reports,
      credits,
    };
  }

  /**
   * The URLs a site's sitemaps list (on the site, robots-allowed, normalised, deduplicated), at most
   * `limit`, nothing charged: how a crawl with `sitemap: include` seeds its frontier. A site without
   * a readable sitemap gives none.
   */
  async sitemapUrls(start: string, options: SitemapSeedOptions): Promise<string[]> {
    const site = normalizeUrl(start);
    if (!site) return [];
    // The caller's patterns apply while reading, so `limit` counts only URLs the caller can use.
    const collector = new UrlCollector({ start: site, includeSubdomains: false, urlPatterns: options.urlPatterns, excludePatterns: options.excludePatterns });
    const walk = await this.readSitemaps(site, collector, options.limit, options.signal);
    const { urls } = await this.finish(collector, walk.candidates, options.limit, false);
    return urls.map((u) => u.url);
  }

  /** The sitemaps robots.txt names (or /sitemap.xml), walked until somewhat over `limit` entries were accepted. */
  private async readSitemaps(start: string, collector: UrlCollector, limit: number, signal?: AbortSignal) {
    const robots = await this.web.robots(start);
    const roots = robots.sitemaps.length > 0 ? robots.sitemaps : [`${new URL(start).origin}/sitemap.xml`];
    // Some slack over limit: duplicates and robots-disallowed entries are only dropped afterwards.
    return walkSitemaps(this.web, roots, collector, Math.ceil(limit * 1.1) + 100, signal);
  }

  /** First occurrence wins (sitemaps before links, so lastmod survives); robots.txt checked per URL; best search matches first. */
  private async finish(collector: UrlCollector, candidates: Candidate[], limit: number, ranked: boolean): Promise<{ urls: MapResult['urls']; truncated: boolean }> {
    const unique = new Map<string, Candidate>();
    for (const c of candidates) {
      if (unique.has(c.url)) collector.stats.duplicates++;
      else unique.set(c.url, c);
    }
    let list = [...unique.values()];
    // Stable: equal scores keep the sitemap's order.
    if (ranked) list = list.sort((a, b) => b.score - a.score);
    const kept: MapResult['urls'] = [];
    let truncated = false;
    for (const c of list) {
      if (!(await this.web.robots(c.url)).allowed) {
        collector.stats.disallowed++;
        continue;
      }
      if (kept.length >= limit) {
        truncated = true;
        break;
      }
      kept.push({ url: c.url, lastmod: c.lastmod, source: c.source });
    }
    return { urls: kept, truncated };
  }

  private unreachable(url: string, failure: NonNullable<Discovery['startFailed']>): WvrError {
    if (failure.code === 'ssrf_blocked' || failure.code === 'unsupported_scheme') {
      return errors.validation('url_not_allowed', `Cannot fetch ${url}: ${failure.message}.`, { details: { url, fetch_error: failure.code } });
    }
    return new WvrError('upstream_error', `Could not map ${url}: no sitemap was readable and the page itself failed (${failure.message}). No credits were charged.`, {
      code: 'fetch_failed',
      details: { url, status: failure.status, fetch_error: failure.code },
      suggestions: ['Check that the URL opens in a browser, then retry.'],
    });
  }
}
