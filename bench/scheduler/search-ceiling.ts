/**
 * What the search endpoint itself can serve: an undici loop of the same queries, serially and
 * at a few concurrencies, in its own process. The scheduler's executions/s reads against it.
 */
import { Agent, request } from 'undici';
import { receiveConfig, sendResult } from '../lib/child.js';

export interface SearchCeilingConfig {
  searchOrigin: string;
  queries: string[];
  requests: number;
  concurrencies: number[];
}

const config = await receiveConfig<SearchCeilingConfig>();
const perSecond: Record<string, number> = {};
for (const concurrency of config.concurrencies) {
  const agent = new Agent({ connections: concurrency });
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < config.requests) {
      const q = config.queries[next++ % config.queries.length]!;
      const res = await request(`${config.searchOrigin}/search?q=${encodeURIComponent(q)}&format=json`, { dispatcher: agent });
      await res.body.text();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  perSecond[String(concurrency)] = Math.round(config.requests / ((performance.now() - started) / 1000));
  await agent.close();
}
await sendResult(perSecond);
