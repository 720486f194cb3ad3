import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A CommonJS package loaded when first asked for, not when the engine starts: loading stays synchronous at the place
 * that first needs it, and a process that never needs it never pays for it.
 */
export function onFirstUse<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(specifier) as T);
}

/**
 * undici (HTTP client of the fetcher, webhooks, AI and search providers): its modules take about 85 ms to load, which
 * every engine paid at start, while most `wvr` commands fetch nothing (credits, tokens, reading a crawl back).
 */
export const undici = onFirstUse<typeof import('undici')>('undici');
