import type { Principal } from '../../accounts/schemas.js';
import type { LocalIndex, Visibility } from '../local-index.js';
import type { ProviderHit, ProviderQuery, SearchProvider } from './types.js';

/** The default provider: the engine's own FTS5 index, filtered to what the caller may see. */
export function localProvider(index: LocalIndex, visibility: (principal: Principal) => Visibility): SearchProvider {
  return {
    name: 'local',
    kind: 'index',
    async search(q: ProviderQuery): Promise<ProviderHit[]> {
      const hits = index.search({
        query: q.query,
        limit: q.maxResults,
        visibility: visibility(q.principal),
        includeDomains: q.includeDomains,
        excludeDomains: q.excludeDomains,
        optionalTerms: q.optionalTerms,
      });
      return hits.map((h) => ({
        title: h.title || h.url,
        url: h.url,
        description: pickDescription(h.snippet, h.description),
        publishedDate: h.publishedDate,
        // -bm25 is unbounded; x / (1 + x) keeps the order and maps it into 0..1.
        relevanceScore: round(h.bm25 / (1 + h.bm25)),
        domain: h.domain,
        schemaTypes: h.schemaTypes,
      }));
    },
  };
}

/** The body snippet around the query terms; the page's own description when the body gave nothing. */
function pickDescription(snippet: string, description: string): string {
  return snippet.trim().length >= 20 || !description ? snippet.trim() : description;
}

const round = (n: number) => Math.round(n * 10_000) / 10_000;
