import { describe, expect, it } from 'vitest';
import { bar, bestPages, crawlProgress, duration, isFinished, progressLine, timing, type CrawlDetail } from './crawl-progress.js';

type Doc = CrawlDetail['documents'][number];

const doc = (url: string, importance: number, title: string | null = null): Doc => ({
  url,
  final_url: url,
  status_code: 200,
  content_type: 'text/html',
  depth: 1,
  title,
  description: null,
  language: null,
  published_date: null,
  text: '',
  markdown: '',
  links: [],
  metadata: {},
  classification: null,
  summary: null,
  from_cache: false,
  credits: 1,
  importance_score: importance,
  inlink_count: 0,
  outlink_count: 0,
  hub_score: 0,
  authority_score: 0,
  anchor_texts: [],
  fetched_at: '2026-01-01T00:00:00.000Z',
});

const detail = (pages: number, documents: Doc[]): CrawlDetail => ({
  id: 'c1',
  status: 'running',
  configuration: {},
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
  session_id: null,
  error: null,
  scheduled_for: '2026-01-01T00:00:00.000Z',
  created_at: '2026-01-01T00:00:00.000Z',
  started_at: null,
  completed_at: null,
  documents,
  documents_total: documents.length,
  classifications: [],
  summary: null,
  access_level: 'owner',
  sharing: { public_share: false, shared_with_org: false, organization_id: null },
  smart_crawl: null,
});

describe('crawlProgress', () => {
  it('measures pages per second from the first poll the CLI saw', () => {
    const p = crawlProgress(detail(30, []), { pages: 10, atMs: 1_000 }, 5_000);
    expect(p.pagesPerSecond).toBe(5);
    expect(p).toMatchObject({ pages: 30, budget: 50, failed: 1, lastFailure: 'http://h/x: 500', credits: 30, queued: 17, filtered: 2 });
    expect(crawlProgress(detail(10, []), { pages: 10, atMs: 1_000 }, 1_000).pagesPerSecond).toBeNull();
  });

  it('gives the elapsed time and an ETA at the current rate, none once the crawl ended', () => {
    const p = crawlProgress(detail(20, []), { pages: 0, atMs: 0 }, 100_000);
    expect([p.elapsedSeconds, p.etaSeconds]).toEqual([100, 150]);
    expect(timing(p)).toBe('1m40s elapsed, ETA 2m30s');
    const done = crawlProgress({ ...detail(50, []), status: 'completed' }, { pages: 0, atMs: 0 }, 10_000);
    expect(timing(done)).toBe('10s elapsed');
    expect(duration(7322)).toBe('2h02m');
  });

  it('ranks the best pages by importance_score, ties by URL, and keeps only the top ones', () => {
    const docs = [doc('http://h/c', 0.1), doc('http://h/a', 0.4, 'A'), doc('http://h/b', 0.1), doc('http://h/d', 0.05)];
    expect(bestPages(docs, 3).map((b) => b.url)).toEqual(['http://h/a', 'http://h/b', 'http://h/c']);
    expect(crawlProgress(detail(4, docs), { pages: 0, atMs: 0 }, 1000, 1).best).toEqual([{ url: 'http://h/a', title: 'A', importance: 0.4 }]);
  });

  it('formats a plain line and a bar, and knows the terminal statuses', () => {
    const p = crawlProgress(detail(20, []), { pages: 0, atMs: 0 }, 4_000);
    expect(progressLine(p)).toBe('crawl c1 running: 20/50 pages, 5.0 pages/s, 4s elapsed, ETA 6s, queue 17, 1 error(s), 2 filtered, 20 credit(s)');
    expect(bar(5, 10, 4)).toBe('██░░');
    expect(bar(99, 10, 4)).toBe('████');
    expect(bar(0, 0, 3)).toBe('░░░');
    expect(['pending', 'running', 'completed', 'failed', 'cancelled'].filter((s) => isFinished(s as CrawlDetail['status']))).toEqual(['completed', 'failed', 'cancelled']);
  });
});
