export interface SessionUrlRules {
  seenUrls: ReadonlySet<string>;
  /** The request's filter_seen_urls: drop results whose exact URL an earlier operation returned. */
  filterSeenUrls: boolean;
  /** session_config.auto_deduplicate: keep the first of results that share an exact URL. */
  autoDeduplicate: boolean;
}

/**
 * Applies a session's URL rules to an operation's results, in order. Exact string match on
 * purpose: the filter is free and must never drop a page the caller did not see.
 */
export function applySessionUrlRules<T extends { url: string }>(items: readonly T[], rules: SessionUrlRules): { kept: T[]; filtered: number; duplicates: number } {
  const kept: T[] = [];
  const inThisOperation = new Set<string>();
  let filtered = 0;
  let duplicates = 0;
  for (const item of items) {
    if (rules.filterSeenUrls && rules.seenUrls.has(item.url)) {
      filtered++;
      continue;
    }
    if (rules.autoDeduplicate && inThisOperation.has(item.url)) {
      duplicates++;
      continue;
    }
    inThisOperation.add(item.url);
    kept.push(item);
  }
  return { kept, filtered, duplicates };
}
