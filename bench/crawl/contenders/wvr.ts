/**
 * wvr's crawler through the engine API (engine-crawls.ts), as a process's first crawl: the engine opened on a new
 * data folder, the site crawled, the engine closed, all on the clock.
 */
import { EngineCrawls } from './engine-crawls.js';
import { runContender } from './protocol.js';

await runContender('wvr crawler', async (config) => {
  const engine = await EngineCrawls.open(config);
  const work = await engine.crawl();
  await engine.close();
  return work;
});
