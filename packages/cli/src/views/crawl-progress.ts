import type { components } from '@wvr/sdk';

export type CrawlDetail = components['schemas']['CrawlDetail'];

export interface BestPage {
  url: string;
  title: string | null;
  importance: number;
}

/**
 * What the live view and the plain progress lines show about a crawl at one poll. The poll may
 * carry only the top documents (documents=top): the best pages need no more.
 */
export interface CrawlProgress {
  id: string;
  status: CrawlDetail['status'];
  pages: number;
  budget: number;
  failed: number;
  /** Why the latest failed page failed. */
  lastFailure: string | null;
  skipped: number;
  /** Pages a classifier dropped: fetched, neither stored nor charged. */
  filtered: number;
  credits: number;
  /** URLs waiting in the frontier. */
  queued: number;
  /** Pages fetched per second since this CLI started watching (null before any time has passed). */
  pagesPerSecond: number | null;
  best: BestPage[];
  error: string | null;
}

const TERMINAL_STATUSES: readonly CrawlDetail['status'][] = ['completed', 'failed', 'cancelled'];

export const isFinished = (status: CrawlDetail['status']) => TERMINAL_STATUSES.includes(status);

/** The first poll a rate is measured from. */
export interface RateBase {
  pages: number;
  atMs: number;
}

export function crawlProgress(detail: CrawlDetail, base: RateBase, nowMs: number, bestCount = 5): CrawlProgress {
  const { stats } = detail;
  const seconds = (nowMs - base.atMs) / 1000;
  return {
    id: detail.id,
    status: detail.status,
    pages: stats.pages_crawled,
    budget: stats.max_pages,
    failed: stats.pages_failed,
    lastFailure: stats.last_failure,
    skipped: stats.pages_skipped,
    filtered: stats.pages_filtered,
    credits: stats.credits_used,
    queued: stats.pages_queued,
    pagesPerSecond: seconds > 0 ? (stats.pages_crawled - base.pages) / seconds : null,
    best: bestPages(detail.documents, bestCount),
    error: detail.error,
  };
}

export function bestPages(documents: CrawlDetail['documents'], count: number): BestPage[] {
  return [...documents]
    .sort((a, b) => b.importance_score - a.importance_score || a.url.localeCompare(b.url))
    .slice(0, count)
    .map((d) => ({ url: d.final_url || d.url, title: d.title, importance: d.importance_score }));
}

/** One plain line per change, for logs and pipes. */
export function progressLine(p: CrawlProgress): string {
  const rate = p.pagesPerSecond === null ? '-' : p.pagesPerSecond.toFixed(1);
  return `crawl ${p.id} ${p.status}: ${p.pages}/${p.budget} pages, ${rate} pages/s, queue ${p.queued}, ${p.failed} error(s), ${p.filtered} filtered, ${p.credits} credit(s)`;
}

export function bar(done: number, total: number, width: number): string {
  const ratio = total > 0 ? Math.min(1, done / total) : 0;
  const filled = Math.round(ratio * width);
  return `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
}
