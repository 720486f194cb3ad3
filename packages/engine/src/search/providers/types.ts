import type { Principal } from '../../accounts/schemas.js';

/** One search as every provider receives it; providers ignore what they cannot use. */
export interface ProviderQuery {
  query: string;
  maxResults: number;
  principal: Principal;
  includeDomains?: string[];
  excludeDomains?: string[];
  /** Terms that may raise a result without being required (session intent additions). */
  optionalTerms?: string[];
  signal?: AbortSignal;
}

export interface ProviderHit {
  title: string;
  url: string;
  /** A snippet biased to the query. */
  description: string;
  publishedDate: string | null;
  /** 0..1, higher is better; comparable within one provider's answer only. */
  relevanceScore: number;
  domain: string;
  /** JSON-LD types when the provider knows them (the local index does). */
  schemaTypes: string[];
}

/**
 * A search backend. `index` providers search pages the engine holds; `web` providers ask an
 * outside engine (SearXNG now; keyed APIs such as Brave or Bing later implement the same shape).
 */
export interface SearchProvider {
  readonly name: string;
  readonly kind: 'index' | 'web';
  search(query: ProviderQuery): Promise<ProviderHit[]>;
}
