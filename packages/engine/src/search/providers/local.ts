import type { Principal } from '../../accounts/schemas.js';
import type { LocalIndex, Visibility } from '../local-index.js';
import type { ProviderHit, ProviderQuery, SearchProvider } from './types.js';

/** The default provider: the engine's own FTS5 index, filtered to what the caller may see. */
export function localProvider(index: LocalIndex, visibility: (principal: Principal) => Promise<Visibility>): SearchProvider {
  return {
    name: 'local',
    kind: 'index',
    async search(q: ProviderQuery): Promise<ProviderHit[]> {
      const hits = await index.search({
        query: q.query,
        limit: q.maxResults,
        visibility: await visibility(q.principal),
        includeDomains: q.includeDomains,
        excludeDomains: q.excludeDomains,
        optionalTerms: q.optionalTerms,
      });
      const best = Math.max(0, ...hits.map((h) => h.bm25));
      return hits.map((h, i) => ({
        title: h.title || h.url,
        url: h.url,
        description: pickDescription(h.snippet, h.description),
        publishedDate: h.publishedDate,
        // BM25 is unbounded and tiny for terms most pages share: scale by the best hit, so the top result is 1.
        relevanceScore: best > 0 ? round(h.bm25 / best) : round(1 - i / hits.length),
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
