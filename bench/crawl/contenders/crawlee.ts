/**
 * Crawlee's CheerioCrawler: same seeds, same concurrency (pinned: min = max, so its autoscaler
 * cannot throttle on a busy shared machine), the same junk links left out, every page stored in
 * its default local dataset under a temp folder. No Apify cloud, purge off.
 */
import { CheerioCrawler, Configuration } from '@crawlee/cheerio';
import { runContender, tempFolder } from './protocol.js';
import { JUNK } from '../site.js';

await runContender('Crawlee CheerioCrawler', async ({ seeds, pages, concurrency }) => {
  const dir = tempFolder('wvr-bench-crawlee-');
  const config = new Configuration({ storageClientOptions: { localDataDirectory: dir }, purgeOnStart: false, persistStorage: true });
  const crawler = new CheerioCrawler(
    {
      minConcurrency: concurrency,
      maxConcurrency: concurrency,
      maxRequestsPerCrawl: pages,
      maxRequestRetries: 1,
      async requestHandler({ $, request, enqueueLinks, pushData }) {
        await pushData({
          url: request.loadedUrl ?? request.url,
          title: $('title').text(),
          description: $('meta[name="description"]').attr('content') ?? null,
          text: $('body').text(),
        });
        await enqueueLinks({ strategy: 'same-hostname', exclude: JUNK });
      },
    },
    config,
  );
  const stats = await crawler.run(seeds);
  // Requests in progress on average (their summed durations over the run): pinned at `concurrency`, a lower figure
  // means Crawlee waited on something of its own, and the ratios against it flatter the other contenders.
  const inProgress = Math.round((stats.requestTotalDurationMillis / Math.max(1, stats.crawlerRuntimeMillis)) * 10) / 10;
  return { pages: stats.requestsFinished, failed: stats.requestsFailed, notes: { storage: 'local dataset (JSON file per page)', inProgress } };
});
