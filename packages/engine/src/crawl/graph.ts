/** HITS over a link graph given as edges; scores scaled so the best hub and the best authority are 1. */
export function hits(edges: readonly { from: string; to: string }[], iterations = 30): { hub: Map<string, number>; authority: Map<string, number> } {
  const hub = new Map<string, number>();
  const authority = new Map<string, number>();
  for (const e of edges) {
    hub.set(e.from, 1);
    hub.set(e.to, hub.get(e.to) ?? 1);
    authority.set(e.from, 1);
    authority.set(e.to, 1);
  }
  for (let i = 0; i < iterations; i++) {
    const nextAuth = new Map<string, number>([...authority.keys()].map((k) => [k, 0]));
    for (const e of edges) nextAuth.set(e.to, nextAuth.get(e.to)! + hub.get(e.from)!);
    normalise(nextAuth);
    const nextHub = new Map<string, number>([...hub.keys()].map((k) => [k, 0]));
    for (const e of edges) nextHub.set(e.from, nextHub.get(e.from)! + nextAuth.get(e.to)!);
    normalise(nextHub);
    for (const [k, v] of nextAuth) authority.set(k, v);
    for (const [k, v] of nextHub) hub.set(k, v);
  }
  return { hub: scaleToMax(hub), authority: scaleToMax(authority) };
}

function normalise(scores: Map<string, number>): void {
  let sum = 0;
  for (const v of scores.values()) sum += v * v;
  const norm = Math.sqrt(sum) || 1;
  for (const [k, v] of scores) scores.set(k, v / norm);
}

function scaleToMax(scores: Map<string, number>): Map<string, number> {
  let max = 0;
  for (const v of scores.values()) max = Math.max(max, v);
  if (max === 0) return scores;
  for (const [k, v] of scores) scores.set(k, round(v / max));
  return scores;
}

export const round = (n: number, digits = 4) => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * How cash-starved a URL's OPIC score is, mapped onto [0, 1]: cash 1 (a lone seed) gives 1,
 * every factor of ten less takes a fifth off, so priorities stay comparable as the frontier grows.
 */
export function cashScore(cash: number): number {
  if (cash <= 0) return 0;
  return Math.max(0, Math.min(1, 1 + Math.log10(cash) / 5));
}

/** Weights of the priority blend: graph-dominated without an intent, model-dominated with one. */
export function priorityOf(p: { relevance: number; cash: number; authority: number; intent: boolean }): number {
  const graph = 0.6 * cashScore(p.cash) + 0.4 * p.authority;
  return round(p.intent ? 0.3 * graph + 0.7 * p.relevance : graph, 6);
}

/** The 30 / 60 / 10 split of fetches between hub discovery, detail expansion and exploration. */
export const BUDGET_SPLIT = { hub: 0.3, detail: 0.6, explore: 0.1 } as const;
export type Bucket = keyof typeof BUDGET_SPLIT;

/** The bucket furthest below its share of the fetches so far, among those with URLs waiting. */
export function nextBucket(fetched: Record<Bucket, number>, available: ReadonlySet<Bucket>): Bucket | null {
  const total = fetched.hub + fetched.detail + fetched.explore + 1;
  let best: Bucket | null = null;
  let bestDeficit = -Infinity;
  for (const bucket of ['detail', 'hub', 'explore'] as const) {
    if (!available.has(bucket)) continue;
    const deficit = BUDGET_SPLIT[bucket] * total - fetched[bucket];
    if (deficit > bestDeficit) {
      best = bucket;
      bestDeficit = deficit;
    }
  }
  return best;
}
