import type { Principal } from '../accounts/schemas.js';
import type { SearchProvider } from '../search/providers/types.js';
import type { CrawlDetail, CrawlDryRun } from '../crawl/responses.js';
import type { JobQueue } from '../jobs/queue.js';
import { WvrError } from '../core/errors.js';
import type { ResultItem } from './changes.js';

/**
 * What a patrol needs from the search and crawl capabilities, given by constructor argument.
 * A search runs without a charge (the execution's price covers it); a crawl is a real crawl
 * job that charges its pages itself. An absent capability makes executions that need it fail
 * with `workflow_search_unavailable` / `workflow_crawl_unavailable`.
 */
export interface WorkflowOperations {
  search?(userId: string, input: { query: string; max_results: number }): Promise<Omit<ResultItem, 'text' | 'fingerprint'>[]>;
  /**
   * Runs a crawl job to its end and returns its pages with their clean text (the executor
   * fingerprints them) and the credits the crawl job charged; `max_credits` caps that.
   */
  crawl?(userId: string, input: { urls: string[]; max_pages: number; config: Record<string, unknown>; max_credits?: number }): Promise<CrawledPages>;
}

export interface CrawledPages {
  pages: (Omit<ResultItem, 'fingerprint'> & { text: string })[];
  credits: number;
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

/** The part of `engine.crawls` and `engine.jobs` a patrol uses: a real crawl job, run now. */
export interface CrawlJobs {
  create(principal: Principal, body: unknown): Promise<CrawlDetail | CrawlDryRun>;
  get(principal: Principal, id: string): CrawlDetail;
}

export function crawlOperation(crawls: CrawlJobs, jobs: Pick<JobQueue, 'runNow'>, principalOf: (userId: string) => Principal): NonNullable<WorkflowOperations['crawl']> {
  return async (userId, input) => {
    const principal = principalOf(userId);
    const body = {
      ...input.config,
      urls: input.urls,
      max_pages: input.max_pages,
      processing_mode: 'async',
      ...(input.max_credits === undefined ? {} : { budget_config: { max_credits: input.max_credits } }),
    };
    const created = await crawls.create(principal, body);
    if ('dry_run' in created) throw new WvrError('internal_error', 'a patrol crawl came back as a dry run', { code: 'workflow_crawl_failed' });
    await jobs.runNow(created.id);
    const done = crawls.get(principal, created.id);
    if (done.status !== 'completed') {
      throw new WvrError('upstream_error', `Crawl ${done.id} ended ${done.status}${done.error ? `: ${done.error}` : ''}.`, { code: 'workflow_crawl_failed', details: { crawl_id: done.id } });
    }
    return {
      credits: done.stats.credits_used,
      pages: done.documents.map((d) => ({
        url: d.url,
        title: d.title ?? d.url,
        description: d.description ?? '',
        published_date: d.published_date,
        text: d.text,
        extracted_data: d.extracted_data ?? null,
      })),
    };
  };
}

/**
 * The part of `engine.sessions` a workflow with a session_id uses: each execution is recorded
 * as an operation of the session, so the session remembers every URL the patrols returned.
 */
export interface WorkflowSessions {
  assertUsable(principal: Principal, sessionId: string): unknown;
  beginOperation(principal: Principal, sessionId: string, kind: 'search' | 'crawl', request: { query?: string; urls?: string[] }): { operationId: string; seenUrls: ReadonlySet<string> };
  finishOperation(operationId: string, outcome: { status: 'completed' | 'failed'; documents?: { url: string; title?: string | null; text?: string | null }[]; credits?: number }): unknown;
}
