/**
 * wvr's crawler through the engine API on a temp SQLite file, for the engine's contenders (wvr.ts, wvr-warm.ts): crawl
 * jobs with internal expansion run by the engine's background job runner, every page fetched, parsed (text, markdown,
 * metadata, links), stored and charged. The API caps one crawl at 1,000 pages (the spec's max_pages range), so the
 * catalogue's pages are split over parallel crawls with disjoint seed categories; a real site is one crawl from its
 * home page. The fetcher's per-host concurrency is the benchmark's concurrency.
 */
import { join } from 'node:path';
import { createEngine } from '@wvr/engine';
import { tempFolder, type ContenderConfig, type Work } from './protocol.js';
import { split } from '../site.js';

const MAX_PAGES_PER_CRAWL = 1_000;

export class EngineCrawls {
  private started = false;

  private constructor(
    private readonly engine: ReturnType<typeof createEngine>,
    private readonly principal: ReturnType<ReturnType<typeof createEngine>['accounts']['localPrincipal']>,
    private readonly config: ContenderConfig,
  ) {}

  /** An engine on a new data folder, its job runner started, with an account holding `crawls` times the pages' credits. */
  static async open(config: ContenderConfig, crawls = 1): Promise<EngineCrawls> {
    const dir = tempFolder('wvr-bench-crawl-');
    const engine = createEngine({ dbPath: join(dir, 'wvr.db'), secret: 'bench', allowPrivateNetwork: true, fetchLimits: { perHostConcurrency: config.concurrency } });
    const user = await engine.accounts.ensureUser({ email: 'bench@x.test' });
    await engine.credits.grant(user.id, config.pages * 2 * crawls);
    return new EngineCrawls(engine, engine.accounts.localPrincipal(user), config);
  }

  /** The site crawled once, as new crawls; done when every one has ended. */
  async crawl(): Promise<Work> {
    const { seeds, pages, maxDepth } = this.config;
    const crawlCount = maxDepth === undefined ? Math.ceil(pages / MAX_PAGES_PER_CRAWL) : 1;
    const ids: string[] = [];
    let left = pages;
    for (const group of split(seeds, crawlCount)) {
      const maxPages = Math.min(MAX_PAGES_PER_CRAWL, left);
      left -= maxPages;
      const crawl = await this.engine.crawls.create(this.principal, {
        urls: group,
        max_pages: maxPages,
        expansion: 'internal',
        link_extraction_config: maxDepth === undefined ? { max_depth: 3, detect_pagination: true } : { max_depth: maxDepth },
      });
      if (!('id' in crawl)) throw new Error('a crawl without dry_run answered a dry run');
      ids.push(crawl.id);
    }
    const started = performance.now();
    // The job runner starts with the first crawls, and takes as many at once as they are; a later call's crawls are its next jobs.
    if (!this.started) this.engine.start({ concurrency: ids.length, jobPollMs: 20, schedulerIntervalMs: 600_000, deliveryIntervalMs: 600_000 });
    this.started = true;
    // Pages crawled at each poll (ms since the start, pages): the warm-up and the steady rate.
    const timeline: [number, number][] = [];
    for (;;) {
      await new Promise((r) => setTimeout(r, 100));
      const jobs = (await this.engine.crawls.list(this.principal, { limit: 100 })).data.filter((c) => ids.includes(c.id));
      timeline.push([Math.round(performance.now() - started), jobs.reduce((s, c) => s + c.stats.pages_crawled, 0)]);
      if (jobs.every((c) => c.status !== 'pending' && c.status !== 'running')) {
        return {
          pages: jobs.reduce((s, c) => s + c.stats.pages_crawled, 0),
          failed: jobs.reduce((s, c) => s + c.stats.pages_failed, 0),
          notes: { crawls: jobs.length, statuses: jobs.map((c) => c.status), skipped: jobs.reduce((s, c) => s + c.stats.pages_skipped, 0), timeline },
        };
      }
    }
  }

  /** The engine closed; its data folder goes when the process ends (tempFolder). */
  async close(): Promise<void> {
    await this.engine.close();
  }
}
