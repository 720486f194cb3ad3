import type { LinkRegion } from '../html/index.js';

/**
 * How much a link counts in HITS by where it sits on the page. Navigation, header and footer
 * links are the site's template, repeated on every page: counted in full they make the privacy
 * page the top authority and every page with a long menu a hub. A link in the content is an
 * editorial choice and counts in full; a sidebar is half template, half content.
 */
export const REGION_WEIGHTS: Record<LinkRegion, number> = { main: 1, aside: 0.5, nav: 0.1, header: 0.1, footer: 0.1 };

/** The weight of a link found in more than one region of a page: its most editorial placement. */
export function strongerRegion(a: LinkRegion, b: LinkRegion): LinkRegion {
  return REGION_WEIGHTS[b] > REGION_WEIGHTS[a] ? b : a;
}

/**
 * Weighted HITS over nodes numbered 0..n-1 (edge i runs from `from[i]` to `to[i]` with weight
 * `weight[i]`, 1 when no weights are given), in typed arrays so a crawl's graph costs a few bytes
 * per edge and no string hashing per iteration; scores scaled so the best hub and the best
 * authority are 1.
 */
export function hitsIndexed(
  n: number,
  from: ArrayLike<number>,
  to: ArrayLike<number>,
  weight?: ArrayLike<number>,
  iterations = 30,
): { hub: Float64Array; authority: Float64Array } {
  let hub = new Float64Array(n).fill(1);
  let authority = new Float64Array(n).fill(1);
  const m = from.length;
  // Read in the loops, not through a closure made at each call: the optimised loops were compiled for the closure of
  // the call they first ran in and thrown away at the next call's.
  for (let i = 0; i < iterations; i++) {
    const nextAuth = new Float64Array(n);
    for (let e = 0; e < m; e++) nextAuth[to[e]!]! += (weight ? weight[e]! : 1) * hub[from[e]!]!;
    normalise(nextAuth);
    const nextHub = new Float64Array(n);
    for (let e = 0; e < m; e++) nextHub[from[e]!]! += (weight ? weight[e]! : 1) * nextAuth[to[e]!]!;
    normalise(nextHub);
    authority = nextAuth;
    hub = nextHub;
  }
  return { hub: scaleToMax(hub), authority: scaleToMax(authority) };
}

function normalise(scores: Float64Array): void {
  let sum = 0;
  for (const v of scores) sum += v * v;
  const norm = Math.sqrt(sum) || 1;
  for (let i = 0; i < scores.length; i++) scores[i]! /= norm;
}

function scaleToMax(scores: Float64Array): Float64Array {
  let max = 0;
  for (const v of scores) max = Math.max(max, v);
  if (max === 0) return scores;
  for (let i = 0; i < scores.length; i++) scores[i] = round(scores[i]! / max);
  return scores;
}

export const round = (n: number, digits = 4) => Math.round(n * 10 ** digits) / 10 ** digits;

/** The 30 / 60 / 10 split of fetches between hub discovery, detail expansion and exploration. */
export const BUDGET_SPLIT = { hub: 0.3, detail: 0.6, explore: 0.1 } as const;
export type Bucket = keyof typeof BUDGET_SPLIT;

/**
 * The bucket furthest below its share of the fetches so far, among those with URLs waiting. The
 * shares are those of the waiting buckets, rescaled to sum to 1, over the fetches they made: a
 * bucket with nothing to fetch hands its share to the others in proportion (a site with no
 * listing-like URLs splits 6 : 1 between detail and exploration, not 60 : 40).
 */
export function nextBucket(fetched: Record<Bucket, number>, available: ReadonlySet<Bucket>): Bucket | null {
  let shares = 0;
  let total = 1;
  for (const bucket of available) {
    shares += BUDGET_SPLIT[bucket];
    total += fetched[bucket];
  }
  let best: Bucket | null = null;
  let bestDeficit = -Infinity;
  for (const bucket of ['detail', 'hub', 'explore'] as const) {
    if (!available.has(bucket)) continue;
    const deficit = (BUDGET_SPLIT[bucket] / shares) * total - fetched[bucket];
    if (deficit > bestDeficit) {
      best = bucket;
      bestDeficit = deficit;
    }
  }
  return best;
}
