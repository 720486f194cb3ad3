import type { components } from '@wvr/sdk';

export type CrawlDetail = components['schemas']['CrawlDetail'];
/** A poll's read of a crawl (GET /v1/crawls/{id}/progress): its stats and best pages, none of their content. */
export type CrawlPoll = components['schemas']['CrawlProgress'];

export interface BestPage {
  url: string;
  title: string | null;
  importance: number;
}

/** What the live view and the plain progress lines show about a crawl at one poll. */
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
  /** Seconds since this CLI started watching. */
  elapsedSeconds: number;
  /** Seconds until the page budget is reached at the current rate; null when unknown or finished. */
  etaSeconds: number | null;
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

export function crawlProgress(poll: CrawlPoll, base: RateBase, nowMs: number): CrawlProgress {
  const { stats } = poll;
  const seconds = (nowMs - base.atMs) / 1000;
  const rate = seconds > 0 ? (stats.pages_crawled - base.pages) / seconds : null;
  return {
    id: poll.id,
    status: poll.status,
    pages: stats.pages_crawled,
    budget: stats.max_pages,
    failed: stats.pages_failed,
    lastFailure: stats.last_failure,
    skipped: stats.pages_skipped,
    filtered: stats.pages_filtered,
    credits: stats.credits_used,
    queued: stats.pages_queued,
    pagesPerSecond: rate,
    elapsedSeconds: Math.max(0, seconds),
    etaSeconds: rate && rate > 0 && !isFinished(poll.status) ? Math.max(0, stats.max_pages - stats.pages_crawled) / rate : null,
    // Ranked by the server: importance first, ties in crawl order.
    best: poll.best_pages.map((d) => ({ url: d.final_url || d.url, title: d.title, importance: d.importance_score })),
    error: poll.error,
  };
}

/** One plain line per change, for logs and pipes. */
export function progressLine(p: CrawlProgress): string {
  const rate = p.pagesPerSecond === null ? '-' : p.pagesPerSecond.toFixed(1);
  return `crawl ${p.id} ${p.status}: ${p.pages}/${p.budget} pages, ${rate} pages/s, ${timing(p)}, queue ${p.queued}, ${p.failed} error(s), ${p.filtered} filtered, ${p.credits} credit(s)`;
}

/** "12s elapsed, ETA 40s": the ETA assumes the rate so far holds until the page budget. */
export function timing(p: Pick<CrawlProgress, 'elapsedSeconds' | 'etaSeconds'>): string {
  return `${duration(p.elapsedSeconds)} elapsed${p.etaSeconds === null ? '' : `, ETA ${duration(p.etaSeconds)}`}`;
}

export function duration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

export function bar(done: number, total: number, width: number): string {
  const ratio = total > 0 ? Math.min(1, done / total) : 0;
  const filled = Math.round(ratio * width);
  return `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
}
