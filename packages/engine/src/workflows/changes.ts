import { createHash } from 'node:crypto';
import { createTwoFilesPatch } from 'diff';
import type { FullSearchResult } from '../search/schemas.js';

/** One result of a patrol, whatever produced it. */
export interface ResultItem {
  url: string;
  title: string;
  description: string;
  published_date: string | null;
  /** Search results only: the provider's score and the decided source type. */
  relevance_score?: number;
  source_type?: FullSearchResult['source_type'];
  /** Crawl pages only: the clean text and its fingerprint. */
  text?: string;
  fingerprint?: string;
  extracted_data?: Record<string, unknown> | null;
  /** Search steps with query_decomposition: the sub-queries that returned this result. */
  matched_queries?: string[];
}

export interface NetNewUrl {
  url: string;
  title: string;
  snippet: string;
  published_date: string | null;
}

export interface PageDiff {
  url: string;
  previous_fingerprint: string;
  fingerprint: string;
  diff: string;
}

export interface ResultChanges {
  net_new_count: number;
  dropped_count: number;
  retained_count: number;
  change_rate: number;
  net_new_urls: NetNewUrl[];
  dropped_urls: string[];
  previous_execution_id: string | null;
  /** With a session_id: results the workflow's session had never returned before. */
  first_seen_count?: number;
  /** Crawl workflows: retained pages whose clean text changed. */
  changed_urls?: string[];
  page_diffs?: PageDiff[];
}

/** URLs compare without fragment and trailing slash, so `/a#x` and `/a/` are the page `/a`. */
export function urlKey(url: string): string {
  try {
    const u = new URL(url);
    u.hash = '';
    const path = u.pathname.length > 1 ? u.pathname.replace(/\/+$/, '') : u.pathname;
    return `${u.protocol}//${u.host.toLowerCase()}${path}${u.search}`;
  } catch {
    return url.trim();
  }
}

/** Whitespace-insensitive SHA-256 of a page's clean text. */
export function fingerprint(text: string): string {
  return createHash('sha256').update(text.replace(/\s+/g, ' ').trim()).digest('hex');
}

/**
 * Compares an execution's results with the immediately preceding execution's. With no
 * previous execution every URL is new. change_rate = (new + dropped) / unique URLs over both x 100.
 */
export function compareResults(
  previous: { id: string; results: ResultItem[] } | null,
  current: ResultItem[],
  options: { pages: boolean } = { pages: false },
): ResultChanges {
  const before = new Map((previous?.results ?? []).map((r) => [urlKey(r.url), r]));
  const now = new Map(current.map((r) => [urlKey(r.url), r]));
  const added = [...now].filter(([key]) => !before.has(key)).map(([, r]) => r);
  const dropped = [...before].filter(([key]) => !now.has(key)).map(([, r]) => r);
  const retained = [...now].filter(([key]) => before.has(key));
  const unique = before.size + added.length;
  const changes: ResultChanges = {
    net_new_count: added.length,
    dropped_count: dropped.length,
    retained_count: retained.length,
    change_rate: unique === 0 ? 0 : round2(((added.length + dropped.length) / unique) * 100),
    net_new_urls: added.map((r) => ({ url: r.url, title: r.title, snippet: r.description, published_date: r.published_date })),
    dropped_urls: dropped.map((r) => r.url),
    previous_execution_id: previous?.id ?? null,
  };
  if (options.pages) {
    const diffs: PageDiff[] = [];
    for (const [key, page] of retained) {
      const old = before.get(key)!;
      if (!old.fingerprint || !page.fingerprint || old.fingerprint === page.fingerprint) continue;
      diffs.push({
        url: page.url,
        previous_fingerprint: old.fingerprint,
        fingerprint: page.fingerprint,
        diff: createTwoFilesPatch(page.url, page.url, lines(old.text), lines(page.text), 'previous', 'current', { context: 2 }),
      });
    }
    changes.changed_urls = diffs.map((d) => d.url);
    changes.page_diffs = diffs;
  }
  return changes;
}

/** Sentences on their own lines make a readable diff of reflowed text. */
function lines(text: string | undefined): string {
  return `${(text ?? '').replace(/\s+/g, ' ').replace(/([.!?])\s+/g, '$1\n').trim()}\n`;
}

const round2 = (n: number) => Math.round(n * 100) / 100;
