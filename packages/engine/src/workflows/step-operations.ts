import type { Principal } from '../accounts/schemas.js';
import type { z } from 'zod';
import type { SearchRun, SearchRunBody } from '../search/schemas.js';
import type { SearchSessionContext } from '../search/schemas.js';
import type { CrawlDetail, CrawlDryRun } from '../crawl/responses.js';
import type { JobQueue } from '../jobs/queue.js';
import type { RenderMode } from '../web/types.js';
import { WvrError } from '../core/errors.js';
import type { ResultItem } from './changes.js';

/**
 * What a patrol needs from the search and crawl capabilities, given by constructor argument.
 * A search runs without a charge (the execution's price covers it); a crawl is a real crawl
 * job that charges its pages itself. An absent capability makes executions that need it fail
 * with `workflow_search_unavailable` / `workflow_crawl_unavailable`.
 */
export interface WorkflowOperations {
  /**
   * A search with every option of its config (a search workflow's operation_config), uncharged;
   * a workflow with a session_id passes the session's intent with `session`.
   */
  search?(userId: string, config: SearchRunConfig, session?: PatrolSessionContext): Promise<SearchedResults>;
  /**
   * Runs a crawl job to its end and returns its pages with their clean text (the executor
   * fingerprints them) and the credits the crawl job charged; `max_credits` caps that.
   */
  crawl?(userId: string, input: { urls: string[]; max_pages: number; config: Record<string, unknown>; max_credits?: number }): Promise<CrawledPages>;
  /**
   * Throws 400 render_unavailable when a patrol's crawls ask for `render: always` and the engine has
   * no browser: checked when the workflow is created or changed, not at every scheduled run.
   */
  assertRender?(mode: RenderMode | undefined): void;
}

export type SearchRunConfig = z.input<typeof SearchRunBody>;

/**
 * What a session gives a patrol's searches: its intent's query additions and boosts. Seen URLs
 * stay out: a patrol's change tracking compares whole executions, so nothing is filtered or
 * demoted for having been seen.
 */
export type PatrolSessionContext = Pick<SearchSessionContext, 'sessionId' | 'intentType'>;

export interface SearchedResults {
  results: Omit<ResultItem, 'text' | 'fingerprint'>[];
  suggested_queries: string[];
  summary: SearchRun['summary'];
}

export interface CrawledPages {
  pages: (Omit<ResultItem, 'fingerprint'> & { text: string })[];
  credits: number;
}

/** The part of `engine.search` a patrol uses: one uncharged, unrecorded search. */
export interface SearchRunner {
  run(principal: Principal, body: unknown, session?: SearchSessionContext): Promise<SearchRun>;
}

export function searchOperation(search: SearchRunner, principalOf: (userId: string) => Promise<Principal>): NonNullable<WorkflowOperations['search']> {
  return async (userId, config, session) => {
    const run = await search.run(await principalOf(userId), config, session && { ...session, filterSeenUrls: false });
    return { results: run.results, suggested_queries: run.suggested_queries, summary: run.summary };
  };
}

/** The part of `engine.crawls` and `engine.jobs` a patrol uses: a real crawl job, run now. */
export interface CrawlJobs {
  create(principal: Principal, body: unknown): Promise<CrawlDetail | CrawlDryRun>;
  get(principal: Principal, id: string): Promise<CrawlDetail>;
}

export function crawlOperation(crawls: CrawlJobs, jobs: Pick<JobQueue, 'runNow'>, principalOf: (userId: string) => Promise<Principal>): NonNullable<WorkflowOperations['crawl']> {
  return async (userId, input) => {
    const principal = await principalOf(userId);
    const body = {
      ...input.config,
      urls: input.urls,
      max_pages: input.max_pages,
      processing_mode: 'async',
      ...(input.max_credits === undefined ? {} : { budget_config: { max_credits: input.max_credits } }),
    };
    const created = await crawls.create(principal, body);
    if ('dry_run' in created) throw new WvrError('internal_error', 'a patrol crawl came back as a dry run', { code: 'workflow_crawl_failed' });
    const done = await crawlToEnd(crawls, jobs, principal, created.id);
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

/** How often a patrol looks at a crawl another process runs: from 50 ms, doubling to once a second. */
const FOLLOW_FIRST_MS = 50;
const FOLLOW_MAX_MS = 1_000;

/**
 * Runs the crawl's job here when it can be claimed, and otherwise follows the crawl until it ends:
 * another process on the data folder may hold the job (its poller claimed it first, or took it over
 * when this engine's lease ran out), and the job may be back in the queue for a retry.
 */
async function crawlToEnd(crawls: CrawlJobs, jobs: Pick<JobQueue, 'runNow'>, principal: Principal, id: string): Promise<CrawlDetail> {
  for (let pause = FOLLOW_FIRST_MS; ; pause = Math.min(pause * 2, FOLLOW_MAX_MS)) {
    const job = await jobs.runNow(id);
    const crawl = await crawls.get(principal, id);
    if (crawl.status !== 'pending' && crawl.status !== 'running') return crawl;
    // The job ended without ending its crawl: nothing will move it any further.
    if (!job || job.status === 'succeeded' || job.status === 'failed' || job.status === 'cancelled') return crawl;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/**
 * The part of `engine.sessions` a workflow with a session_id uses: each execution is recorded
 * as an operation of the session, so the session remembers every URL the patrols returned.
 */
export interface WorkflowSessions {
  assertUsable(principal: Principal, sessionId: string): unknown;
  /** `context` is null when the session's use_session_context is off. */
  beginOperation(
    principal: Principal,
    sessionId: string,
    kind: 'search' | 'crawl',
    request: { query?: string; urls?: string[] },
  ): Promise<{ operationId: string; seenUrls: ReadonlySet<string>; context: { intent_type: string | null } | null }>;
  finishOperation(operationId: string, outcome: { status: 'completed' | 'failed'; documents?: { url: string; title?: string | null; text?: string | null }[]; credits?: number }): unknown;
}
