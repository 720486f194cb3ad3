/**
 * The crawl's words as the crawl code and its store port (store/ports/crawl.ts) both speak them:
 * plain types, and the one formula a driver applies itself, the frontier's priority.
 */
export type CrawlStatus = 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';
export type CrawlStrategy = 'smart' | 'breadth_first';
/** Where a frontier URL stands: `seen` (a session saw it before) and `duplicate` (covered by another URL) are never fetched. */
export type FrontierState = 'queued' | 'fetching' | 'done' | 'failed' | 'duplicate' | 'seen' | 'filtered';
/** The smart crawl's buckets (graph.ts splits the fetches between the last three); seeds come first. */
export type FrontierBucket = 'seed' | 'hub' | 'detail' | 'explore';
export const FRONTIER_BUCKETS: readonly FrontierBucket[] = ['seed', 'hub', 'detail', 'explore'];

/**
 * How cash-starved a URL's OPIC score is, mapped onto [0, 1]: cash 1 (a lone seed) gives 1,
 * every factor of ten less takes a fifth off, so priorities stay comparable as the frontier grows.
 */
export function cashScore(cash: number): number {
  if (cash <= 0) return 0;
  return Math.max(0, Math.min(1, 1 + Math.log10(cash) / 5));
}

/**
 * A frontier URL's priority, stored with the URL so the next one to fetch is an index lookup. It
 * lives here, not in graph.ts, because the drivers rewrite it themselves when a known URL is linked
 * again (its cash changed in the same statement): graph-dominated without an intent, model-dominated with one.
 */
export function priorityOf(p: { relevance: number; cash: number; authority: number; intent: boolean }): number {
  const graph = 0.6 * cashScore(p.cash) + 0.4 * p.authority;
  const blend = p.intent ? 0.3 * graph + 0.7 * p.relevance : graph;
  return Math.round(blend * 1e6) / 1e6;
}
