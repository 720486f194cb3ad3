/**
 * wvr's crawler through the engine API (engine-crawls.ts), as a server's or an embedding app's later crawls run: the
 * site crawled once (or `warmCrawls` times) to warm the process up (V8 has optimised the readers' and the stores' code,
 * the page reader's heap has grown to its pages), then crawled again as new crawls, which alone are on the clock. Its
 * peak RSS is the process's over every crawl: with many warm-up crawls, a long-running process's. The earlier crawls'
 * documents stay in the database, as a server's earlier crawls do.
 */
import { EngineCrawls } from './engine-crawls.js';
import { runContender, startMeter, type ContenderConfig } from './protocol.js';

const earlier = (config: ContenderConfig) => config.warmCrawls ?? 1;
const name = (config: ContenderConfig) => `wvr crawler, warm (${earlier(config) === 1 ? 'a second crawl' : `crawl ${earlier(config) + 1}`} in the same process)`;

await runContender(name, async (config) => {
  const before = earlier(config);
  const engine = await EngineCrawls.open(config, before + 1);
  for (let i = 0; i < before; i++) await engine.crawl();
  const meter = startMeter();
  const work = await engine.crawl();
  const measured = meter.read();
  await engine.close();
  return { ...work, ...measured };
});
