import { describe, expect, it } from 'vitest';
import { bar, crawlProgress, duration, isFinished, progressLine, timing, type CrawlDetail, type CrawlPoll } from './crawl-progress.js';

type Best = CrawlPoll['best_pages'][number];

const best = (url: string, importance: number, title: string | null = null, finalUrl = url): Best => ({ url, final_url: finalUrl, title, status_code: 200, depth: 1, importance_score: importance });

const poll = (pages: number, best_pages: Best[] = []): CrawlPoll => ({
  id: 'c1',
  status: 'running',
  stats: {
    pages_crawled: pages,
    pages_failed: 1,
    last_failure: 'http://h/x: 500',
    pages_skipped: 0,
    pages_filtered: 2,
    pages_cached: 0,
    pages_queued: 17,
    max_pages: 50,
    max_depth: 2,
    credits_used: pages,
    credits_reserved: 50,
    pricing_tier: 'basic',
    advanced_features: [],
  },
  error: null,
  started_at: null,
  completed_at: null,
  documents_total: best_pages.length,
  best_pages,
});

describe('crawlProgress', () => {
  it('measures pages per second from the first poll the CLI saw', () => {
    const p = crawlProgress(poll(30), { pages: 10, atMs: 1_000 }, 5_000);
    expect(p.pagesPerSecond).toBe(5);
    expect(p).toMatchObject({ pages: 30, budget: 50, failed: 1, lastFailure: 'http://h/x: 500', credits: 30, queued: 17, filtered: 2 });
    expect(crawlProgress(poll(10), { pages: 10, atMs: 1_000 }, 1_000).pagesPerSecond).toBeNull();
  });

  it('gives the elapsed time and an ETA at the current rate, none once the crawl ended', () => {
    const p = crawlProgress(poll(20), { pages: 0, atMs: 0 }, 100_000);
    expect([p.elapsedSeconds, p.etaSeconds]).toEqual([100, 150]);
    expect(timing(p)).toBe('1m40s elapsed, ETA 2m30s');
    const done = crawlProgress({ ...poll(50), status: 'completed' }, { pages: 0, atMs: 0 }, 10_000);
    expect(timing(done)).toBe('10s elapsed');
    expect(duration(7322)).toBe('2h02m');
  });

  it('shows the best pages in the order the server ranked them, each by the URL it ended at', () => {
    const pages = [best('http://h/a', 0.4, 'A', 'http://h/a/'), best('http://h/c', 0.1), best('http://h/b', 0.1, null, '')];
    expect(crawlProgress(poll(4, pages), { pages: 0, atMs: 0 }, 1000).best).toEqual([
      { url: 'http://h/a/', title: 'A', importance: 0.4 },
      { url: 'http://h/c', title: null, importance: 0.1 },
      { url: 'http://h/b', title: null, importance: 0.1 },
    ]);
  });

  it('formats a plain line and a bar, and knows the terminal statuses', () => {
    const p = crawlProgress(poll(20), { pages: 0, atMs: 0 }, 4_000);
    expect(progressLine(p)).toBe('crawl c1 running: 20/50 pages, 5.0 pages/s, 4s elapsed, ETA 6s, queue 17, 1 error(s), 2 filtered, 20 credit(s)');
    expect(bar(5, 10, 4)).toBe('██░░');
    expect(bar(99, 10, 4)).toBe('████');
    expect(bar(0, 0, 3)).toBe('░░░');
    expect(['pending', 'running', 'completed', 'failed', 'cancelled'].filter((s) => isFinished(s as CrawlDetail['status']))).toEqual(['completed', 'failed', 'cancelled']);
  });
});
