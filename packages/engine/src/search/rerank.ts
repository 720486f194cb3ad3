/** The spec's reranking factors. */
export const AUTHORITY_ALIGNMENT = 1.25;
export const DOCUMENT_TYPE_MATCH = 1.15;
export const INTENT_BOOST = 1.2;
export const NOVELTY_DECAY = 0.15;

export interface RerankCandidate {
  domain: string;
  relevanceScore: number;
  /** The domain is an authority for the wanted source type. */
  authority: boolean;
  /** The result's source type is the wanted one. */
  typeMatch: boolean;
  /** The session's intent boosts this kind of result (+20%). */
  intentBoost: boolean;
}

export interface Reranked<T> {
  item: T;
  score: number;
  /** Results of the same domain already ranked above it (plus those the session has seen). */
  domainCount: number;
}

/**
 * Novelty reranking: score = relevance x 1.25 (authority) x 1.15 (type match) x 1.2 (intent)
 * x exp(-0.15 x domain_count). Built greedily: each place goes to the best score given the
 * domains already placed, so a second page from one domain pays the novelty penalty once,
 * a third twice. `seenDomains` counts domains the session has already shown (a soft penalty,
 * where filter_seen_urls is the hard one).
 */
export function rerank<T extends RerankCandidate>(items: T[], seenDomains: ReadonlyMap<string, number> = new Map()): Reranked<T>[] {
  const counts = new Map(seenDomains);
  const remaining = items.map((item, order) => ({ item, order, base: baseScore(item) }));
  const out: Reranked<T>[] = [];
  while (remaining.length > 0) {
    let bestIndex = 0;
    let bestScore = -Infinity;
    remaining.forEach((c, i) => {
      const s = c.base * novelty(counts.get(c.item.domain) ?? 0);
      if (s > bestScore) (bestScore = s), (bestIndex = i);
    });
    const [chosen] = remaining.splice(bestIndex, 1);
    const domainCount = counts.get(chosen!.item.domain) ?? 0;
    out.push({ item: chosen!.item, score: bestScore, domainCount });
    counts.set(chosen!.item.domain, domainCount + 1);
  }
  return out;
}

function baseScore(c: RerankCandidate): number {
  return (
    c.relevanceScore *
    (c.authority ? AUTHORITY_ALIGNMENT : 1) *
    (c.typeMatch ? DOCUMENT_TYPE_MATCH : 1) *
    (c.intentBoost ? INTENT_BOOST : 1)
  );
}

export const novelty = (domainCount: number) => Math.exp(-NOVELTY_DECAY * domainCount);
