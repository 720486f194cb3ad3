/**
 * query_decomposition: a compound query ("noise cancelling headphones and batteries") names
 * several things to find; one search for all of it ranks pages about the first thing and
 * misses the rest. It is split into sub-queries, one search each, merged with provenance.
 */

/** The words that join two things to find; "vs" and "versus" compare two. */
const JOINERS = /\s*(?:,|;|\s&\s|\band\b|\bor\b|\bvs\.?|\bversus\b|\bplus\b)\s*/i;

/** At most this many sub-queries: each is a search the step pays for. */
export const MAX_SUB_QUERIES = 5;

/**
 * The sub-queries of a query; a query with one part is its own only sub-query. Names joined
 * before a shared description share it: "Veltro and Quillo noise cancelling headphones" is
 * "Veltro noise cancelling headphones" and "Quillo noise cancelling headphones".
 */
export function decomposeQuery(query: string): string[] {
  const parts = query
    .split(JOINERS)
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  if (parts.length <= 1) return [query.trim()];
  const last = parts.at(-1)!.split(/\s+/);
  const names = parts.slice(0, -1);
  const sharesTail = last.length > 1 && /^\p{Lu}/u.test(last[0]!) && names.every((n) => /^\p{Lu}\S*$/u.test(n));
  const subQueries = sharesTail ? [...names.map((n) => `${n} ${last.slice(1).join(' ')}`), parts.at(-1)!] : parts;
  return [...new Set(subQueries)].slice(0, MAX_SUB_QUERIES);
}

/**
 * Merges the sub-queries' results: interleaved (each sub-query's best first), one per URL,
 * each carrying `matched_queries`, the sub-queries that returned it.
 */
export function mergeSubResults<T extends { url: string }>(
  runs: { query: string; results: T[] }[],
  key: (url: string) => string,
): (T & { matched_queries: string[] })[] {
  const byKey = new Map<string, T & { matched_queries: string[] }>();
  const longest = Math.max(0, ...runs.map((r) => r.results.length));
  for (let i = 0; i < longest; i++) {
    for (const run of runs) {
      const item = run.results[i];
      if (!item) continue;
      const k = key(item.url);
      const have = byKey.get(k);
      if (have) {
        if (!have.matched_queries.includes(run.query)) have.matched_queries.push(run.query);
      } else byKey.set(k, { ...item, matched_queries: [run.query] });
    }
  }
  return [...byKey.values()];
}
