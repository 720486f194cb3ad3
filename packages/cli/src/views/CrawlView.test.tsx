import { describe, expect, it } from 'vitest';
import { render } from 'ink-testing-library';
import { CrawlView } from './CrawlView.js';
import type { CrawlProgress } from './crawl-progress.js';

const progress = (over: Partial<CrawlProgress> = {}): CrawlProgress => ({
  id: 'c1',
  status: 'running',
  pages: 12,
  budget: 40,
  failed: 2,
  lastFailure: null,
  skipped: 1,
  filtered: 3,
  credits: 12,
  queued: 25,
  pagesPerSecond: 3.46,
  elapsedSeconds: 65,
  etaSeconds: 8,
  best: [
    { url: 'http://127.0.0.1:1/', title: 'Home', importance: 0.5 },
    { url: 'http://127.0.0.1:1/category/books', title: 'Books', importance: 0.125 },
  ],
  error: null,
  ...over,
});

describe('CrawlView', () => {
  it('shows the budget bar, rate, queue, errors and the best pages in order', () => {
    const { lastFrame } = render(<CrawlView progress={progress()} />);
    const frame = lastFrame()!;
    expect(frame).toContain('crawl c1 running');
    // 12 of 40 is 30%: 9 of the bar's 30 cells are filled.
    expect(frame).toContain(`${'█'.repeat(9)}${'░'.repeat(21)} 12/40 pages (30%) · 1m05s elapsed, ETA 8s`);
    expect(frame).toContain('3.5 pages/s · queue 25 · 2 error(s) · 1 duplicate(s) · 3 filtered · 12 credit(s)');
    const lines = frame.split('\n');
    const home = lines.findIndex((l) => l.includes('0.500 Home'));
    const books = lines.findIndex((l) => l.includes('0.125 Books'));
    expect(home).toBeGreaterThan(lines.indexOf('Best pages so far'));
    expect(books).toBe(home + 1);
  });

  it('re-renders as the crawl moves and ends, with the queue as it shrinks', () => {
    const view = render(<CrawlView progress={progress({ status: 'pending', pages: 0, best: [], pagesPerSecond: null })} />);
    expect(view.lastFrame()).toContain('0/40 pages (0%)');
    expect(view.lastFrame()).toContain('(none yet)');
    expect(view.lastFrame()).toContain('- pages/s');
    view.rerender(<CrawlView progress={progress({ status: 'completed', pages: 40, queued: 7, lastFailure: 'http://h/x: HTTP 500', error: 'budget reached' })} />);
    const frame = view.lastFrame()!;
    expect(frame).toContain('crawl c1 completed');
    expect(frame).toContain(`${'█'.repeat(30)} 40/40 pages (100%)`);
    expect(frame).toContain('queue 7');
    expect(frame).toContain('last failure: http://h/x: HTTP 500');
    expect(frame).toContain('error: budget reached');
  });
});
