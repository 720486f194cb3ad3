import { normalizeUrl } from '../html/url.js';
import type { PageFetcher } from '../web/types.js';
import type { Candidate, UrlCollector } from './collect.js';
import type { MapSitemapReport } from './schemas.js';
import { scanSitemap } from './sitemap-scan.js';

/** Sitemaps fetched for one map at most: a site with more is listing beyond what one call can return. */
export const MAX_SITEMAPS = 500;
/** Index nesting followed: the protocol allows none, sites use two or three, a loop would be endless. */
export const MAX_SITEMAP_DEPTH = 4;
/**
 * Sitemaps fetched at once. The fetcher's per-host politeness (concurrency, Crawl-delay) still
 * decides when each request leaves; this only keeps enough queued to use it.
 */
const IN_FLIGHT = 8;

interface Job {
  url: string;
  depth: number;
  /** Children of an index must be on the site; roots named by robots.txt may be anywhere (cross-submission). */
  root: boolean;
  /** pending until a worker takes it; skipped jobs are reported but never fetched. */
  state: 'pending' | 'taken' | 'skipped';
  report: MapSitemapReport;
  found: Candidate[];
}

export interface SitemapWalk {
  /** Accepted entries, sitemap by sitemap in the order they were found (duplicates not yet removed). */
  candidates: Candidate[];
  reports: MapSitemapReport[];
}

/**
 * Reads the sitemaps named by robots.txt (or /sitemap.xml when it names none), following index
 * files breadth-first with several fetches in flight. Stops starting new fetches once `enough`
 * entries were accepted. Every fetch goes through the engine's fetcher: SSRF guard, robots.txt,
 * politeness, size and time caps.
 */
export async function walkSitemaps(fetcher: PageFetcher, roots: readonly string[], collector: UrlCollector, enough: number, signal?: AbortSignal): Promise<SitemapWalk> {
  const jobs: Job[] = [];
  const seen = new Set<string>();
  let accepted = 0;
  let planned = 0;
  const enqueue = (raw: string, base: string | undefined, depth: number, root: boolean): void => {
    const url = normalizeUrl(raw, base);
    if (!url) {
      jobs.push(job(raw.slice(0, 2048), depth, root, 'skipped', 'not an http(s) URL'));
      return;
    }
    if (seen.has(url)) return;
    seen.add(url);
    if (!root && !collector.onSite(url)) jobs.push(job(url, depth, root, 'skipped', 'on another site than the index'));
    else if (depth > MAX_SITEMAP_DEPTH) jobs.push(job(url, depth, root, 'skipped', `nested deeper than ${MAX_SITEMAP_DEPTH} indexes`));
    else if (planned >= MAX_SITEMAPS) jobs.push(job(url, depth, root, 'skipped', `more than ${MAX_SITEMAPS} sitemaps`));
    else {
      planned++;
      jobs.push(job(url, depth, root, 'pending', null));
    }
  };
  for (const root of roots) enqueue(root, undefined, 0, true);

  const read = async (j: Job): Promise<void> => {
    const page = await fetcher.fetch({ url: j.url, unpackGzip: true, signal });
    if (page.error || page.status >= 400 || page.body === null) {
      j.report.status = 'failed';
      j.report.error = page.error ? `${page.error.code}: ${page.error.message}` : page.body === null ? `unreadable ${page.contentType || 'content'}` : `HTTP ${page.status}`;
      return;
    }
    const scan = scanSitemap(page.body);
    j.report.kind = scan.kind;
    j.report.urls = scan.entries.length;
    collector.stats.sitemaps_read++;
    if (scan.kind === null) {
      j.report.status = 'failed';
      j.report.error = 'not a sitemap (no <urlset> or <sitemapindex> root)';
      return;
    }
    if (!scan.complete) {
      j.report.status = 'partial';
      j.report.error = 'malformed or cut off: read the entries before the fault';
    } else if (scan.skipped > 0) {
      j.report.error = `${scan.skipped} entries past the protocol's 50,000 were not read`;
    }
    if (scan.kind === 'sitemapindex') {
      for (const entry of scan.entries) enqueue(entry.loc, page.url, j.depth + 1, false);
      return;
    }
    collector.stats.sitemap_urls += scan.entries.length;
    for (const entry of scan.entries) {
      const candidate = collector.accept(entry.loc, page.url, entry.lastmod, 'sitemap');
      if (candidate) j.found.push(candidate);
    }
    accepted += j.found.length;
  };

  // A small pool: take the next pending sitemap whenever a slot frees, until none is left or enough were found.
  let next = 0;
  const worker = async (): Promise<void> => {
    for (;;) {
      while (next < jobs.length && jobs[next]!.state === 'skipped') next++;
      if (next >= jobs.length || accepted >= enough || signal?.aborted) return;
      const j = jobs[next++]!;
      j.state = 'taken';
      await read(j);
    }
  };
  // Index files add jobs while workers run; workers that found the queue empty meanwhile are started again.
  do {
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  } while (next < jobs.length && accepted < enough && !signal?.aborted);
  for (const j of jobs) {
    if (j.state === 'pending') Object.assign(j.report, { status: 'skipped', error: 'not needed: enough URLs were found' });
  }
  return { candidates: jobs.flatMap((j) => j.found), reports: jobs.map((j) => j.report) };
}

function job(url: string, depth: number, root: boolean, state: 'pending' | 'skipped', error: string | null): Job {
  return { url, depth, root, state, report: { url, kind: null, status: state === 'skipped' ? 'skipped' : 'ok', urls: 0, error }, found: [] };
}
