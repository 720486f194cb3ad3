import type { Principal } from '../accounts/schemas.js';
import type { SearchProvider } from '../search/providers/types.js';
import type { ResultItem } from './changes.js';

/**
 * What a patrol needs from the search and crawl capabilities, given by constructor argument.
 * These run WITHOUT charging: the workflow execution is priced and charged as a whole.
 * A capability that is not wired yet is simply absent; executions that need it fail with
 * `workflow_operation_unavailable`.
 */
export interface WorkflowOperations {
  search?(userId: string, input: { query: string; max_results: number }): Promise<Omit<ResultItem, 'text' | 'fingerprint'>[]>;
  /** Pages with their clean text; the executor fingerprints them. */
  crawl?(userId: string, input: { urls: string[]; max_pages: number; config: Record<string, unknown> }): Promise<(Omit<ResultItem, 'fingerprint'> & { text: string })[]>;
}

/** The part of `engine.search` a patrol uses: its configured provider, called without a charge. */
export interface SearchProviders {
  readonly providers: ReadonlyMap<string, Pick<SearchProvider, 'search'>>;
  readonly defaultProvider: string;
}

export function searchOperation(search: SearchProviders, principalOf: (userId: string) => Principal): NonNullable<WorkflowOperations['search']> {
  return async (userId, input) => {
    const provider = search.providers.get(search.defaultProvider);
    if (!provider) throw new Error(`search provider ${search.defaultProvider} is not configured`);
    const hits = await provider.search({ query: input.query, maxResults: input.max_results, principal: principalOf(userId) });
    return hits.map((h) => ({ url: h.url, title: h.title, description: h.description, published_date: h.publishedDate }));
  };
}
