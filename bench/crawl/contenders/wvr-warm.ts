/**
 * wvr's crawler through the engine API (engine-crawls.ts), as a server's or an embedding app's later crawls run: the
 * site crawled once to warm the process up (V8 has optimised the readers' and the stores' code, the page reader's
 * heap has grown to its pages), then crawled again as new crawls, which alone are on the clock. Its peak RSS is the
 * process's over both crawls. The first crawl's documents stay in the database, as a server's earlier crawls do.
 */
import { EngineCrawls } from './engine-crawls.js';
import { runContender, startMeter } from './protocol.js';

await runContender('wvr crawler, warm (a second crawl in the same process)', async (config) => {
  const engine = await EngineCrawls.open(config, 2);
  await engine.crawl();
  const meter = startMeter();
  const work = await engine.crawl();
  const measured = meter.read();
  await engine.close();
  return { ...work, ...measured };
});
