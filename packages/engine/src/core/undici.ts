import { createRequire } from 'node:module';

type Undici = typeof import('undici');
let loaded: Undici | undefined;

/**
 * undici (HTTP client of the fetcher, webhooks, AI and search providers), loaded on first use: its modules take about
 * 85 ms to load, which every engine paid at start, while most `wvr` commands fetch nothing (credits, tokens, reading a
 * crawl back). Its CommonJS entry, so loading it stays synchronous where it is first needed.
 */
export function undici(): Undici {
  return (loaded ??= createRequire(import.meta.url)('undici') as Undici);
}
