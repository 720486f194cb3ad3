import { describe, expect, it } from 'vitest';
import { apiLoad } from '../../../bench/api/load.js';
import { report } from './harness.js';

/**
 * The bounded load run: API latency idle and while a crawl runs, printed for docs/benchmarks.md
 * (bench:api runs the same measurement longer). Figures are reported, never asserted on time; what
 * is asserted is that no request failed.
 */
describe('bounded load run', () => {
  it('answers every API request during a crawl, and prints p50 / p99 / max idle and crawling', async () => {
    const figures = await apiLoad({ concurrency: 10, seconds: 6, pages: 300 });
    report('load (GET /v1/credits, c=10, 6 s per phase)', {
      idle_p50_ms: figures.idle.p50,
      idle_p99_ms: figures.idle.p99,
      idle_max_ms: figures.idle.max,
      crawl_p50_ms: figures.crawling.p50,
      crawl_p99_ms: figures.crawling.p99,
      crawl_max_ms: figures.crawling.max,
      p99_ratio: figures.p99Ratio,
      pages_during: figures.crawling.pagesCrawled,
      requests: figures.idle.requests + figures.crawling.requests,
      load_avg: figures.crawling.load,
    });
    expect(figures.idle.errors + figures.crawling.errors).toBe(0);
    expect(figures.crawling.requests).toBeGreaterThan(0);
  }, 240_000);
});
