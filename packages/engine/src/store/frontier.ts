import { normalizeUrl } from '../html/url.js';
import { priorityOf, type FrontierBucket } from '../crawl/vocabulary.js';
import type { Discovered, FrontierRow, Rescore } from './ports/crawl.js';

/**
 * The frontier rules both drivers apply in TypeScript, written once: what the port promises
 * (ports/crawl.ts) must not drift between SQLite and PostgreSQL.
 */

/** Anchor texts kept per URL: enough to score it, bounded however often it is linked. */
export const MAX_ANCHORS = 10;

/**
 * A URL waiting in exploration moves to the detail bucket when a link to it is a detail candidate: found first on a
 * table of contents with no word of the intent, it is found again on the page about it (crawl/runner.ts).
 */
const promoted = (bucket: FrontierBucket, linked: FrontierBucket): FrontierBucket => (bucket === 'explore' && linked === 'detail' ? 'detail' : bucket);

/**
 * A known URL linked again: the fields that change (one more inlink, its anchor, cash, the bucket it may be promoted to,
 * the shallower depth, a fresh priority).
 */
export function relinked(
  row: Pick<FrontierRow, 'url' | 'state' | 'bucket' | 'cash' | 'relevance' | 'authority' | 'depth' | 'inlinks' | 'anchors' | 'context'>,
  d: Discovered,
  rescore: Rescore | undefined,
  intent: boolean,
): Pick<FrontierRow, 'inlinks' | 'anchors' | 'cash' | 'relevance' | 'bucket' | 'depth' | 'priority'> {
  const fresh = d.anchor !== '' && row.anchors.length < MAX_ANCHORS && !row.anchors.includes(d.anchor);
  const anchors = fresh ? [...row.anchors, d.anchor] : row.anchors;
  // OPIC only pays URLs that are still to be fetched.
  const cash = row.state === 'queued' || row.state === 'fetching' ? row.cash + d.cash : row.cash;
  const rescored = fresh && rescore ? Math.max(row.relevance, rescore(row.url, anchors, row.context)) : row.relevance;
  const bucket = promoted(row.bucket, d.bucket);
  // Promoted, it is as relevant as the link that promoted it says.
  const relevance = bucket === row.bucket ? rescored : Math.max(rescored, d.relevance);
  return {
    inlinks: row.inlinks + 1,
    anchors,
    cash,
    relevance,
    bucket,
    // A shallower path found later lets the URL's own links go deeper within max_depth.
    depth: Math.min(row.depth, d.depth),
    priority: priorityOf({ relevance, cash, authority: row.authority, intent }),
  };
}

/** A new URL's row as the link found it. */
export function queuedRow(d: Discovered, seq: number, intent: boolean): Omit<FrontierRow, 'id'> {
  return {
    url: d.url,
    seq,
    depth: d.depth,
    state: 'queued',
    bucket: d.bucket,
    relevance: d.relevance,
    cash: d.cash,
    history: 0,
    authority: 0,
    priority: priorityOf({ relevance: d.relevance, cash: d.cash, authority: 0, intent }),
    inlinks: d.bucket === 'seed' ? 0 : 1,
    anchors: d.anchor ? [d.anchor] : [],
    context: d.context,
  };
}

/** A URL the graph knows but never fetches (seen before, or covered by another URL). */
export function unfetchedRow(url: string, depth: number, state: 'seen' | 'duplicate', seq: number): Omit<FrontierRow, 'id'> {
  return { url, seq, depth, state, bucket: 'detail', relevance: 0, cash: 0, history: 0, authority: 0, priority: 0, inlinks: 0, anchors: [], context: '' };
}

/** The seeds, normalised and deduplicated, sharing OPIC's initial cash of 1. */
export function seedLinks(urls: readonly string[]): Discovered[] {
  const seeds = normalizedUrls(urls);
  return seeds.map((url) => ({ url, depth: 0, bucket: 'seed', relevance: 1, anchor: '', context: '', cash: 1 / seeds.length }));
}

export function normalizedUrls(urls: readonly string[]): string[] {
  return [...new Set(urls.map((u) => normalizeUrl(u)).filter((u): u is string => u !== null))];
}
