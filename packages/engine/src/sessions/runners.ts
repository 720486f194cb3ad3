import type { Principal } from '../accounts/schemas.js';
import type { AskContext, AskResponse } from '../ask/schemas.js';
import type { CrawlDetail, CrawlDryRun } from '../crawl/responses.js';
import { parseInput } from '../core/validate.js';
import type { SearchDryRun, SearchJob, SearchSessionContext } from '../search/schemas.js';
import { applySessionUrlRules } from './filter.js';
import type { BegunOperation, OperationOutcome, OperationRequest } from './operation-records.js';
import { crawlOutcome, searchOutcome } from './outcomes.js';
import { SessionAskBody, SessionCrawlBody, SessionSearchBody, type SessionOperationKind } from './schemas.js';

/**
 * The parts of the search, crawl and ask services a session drives, handed in by engine.ts:
 * the sessions folder sits above them but imports none of their services.
 */
export interface SessionCapabilities {
  search: {
    search(principal: Principal, body: unknown, session?: SearchSessionContext): Promise<SearchJob | SearchDryRun>;
  };
  crawls: {
    create(principal: Principal, body: unknown, options?: { sessionId?: string; skipUrls?: readonly string[] }): Promise<CrawlDetail | CrawlDryRun>;
  };
  asks: {
    create(principal: Principal, body: unknown, options?: { context?: AskContext }): Promise<AskResponse>;
  };
}

/** What the runners need from the sessions service. */
export interface SessionHost {
  /** 404 foreign, 409 completed or archived. */
  assertUsable(principal: Principal, sessionId: string): Promise<unknown>;
  /** assertUsable plus max_operations: a dry run answers what the call would. */
  assertCanOperate(principal: Principal, sessionId: string): Promise<unknown>;
  beginOperation(principal: Principal, sessionId: string, kind: SessionOperationKind, request?: OperationRequest): Promise<BegunOperation>;
  finishOperation(operationId: string, outcome: OperationOutcome): Promise<unknown>;
  attachResource(operationId: string, resourceId: string): Promise<void>;
}

/** How many of the session's keywords and entities widen an ask's retrieval query. */
const ASK_CONTEXT_TERMS = 6;

/**
 * POST /v1/sessions/{id}/search|crawl|ask, and plain search, crawl and ask requests naming a
 * session_id (runOperation routes them here): checks the session, records the operation around
 * the capability's own call (which charges what the plain operation charges), applies the
 * session's URL rules and feeds the results back into the session. engine.ts builds it over the
 * sessions service and the capabilities, so nothing calls back into a service that called it.
 */
export class SessionRunners {
  constructor(
    private readonly host: SessionHost,
    private readonly capabilities: SessionCapabilities,
  ) {}

  /** For operations that only name a session (a crawl estimate): 404 foreign, 409 closed, as the run would answer. */
  async check(principal: Principal, sessionId: string): Promise<void> {
    await this.host.assertUsable(principal, sessionId);
  }

  async search(principal: Principal, sessionId: string, body: unknown): Promise<SearchJob | SearchDryRun> {
    const { filter_seen_urls, ...input } = parseInput(SessionSearchBody, body);
    const { search } = this.capabilities;
    await this.host.assertCanOperate(principal, sessionId);
    if (input.dry_run) return search.search(principal, { ...input, session_id: sessionId }, { sessionId });
    const op = await this.host.beginOperation(principal, sessionId, 'search', { query: input.query });
    const result = await this.guard(op, () =>
      search.search(principal, input, {
        sessionId,
        intentType: op.context?.intent_type ?? null,
        seenUrls: [...op.seenUrls],
        filterSeenUrls: filter_seen_urls,
      }),
    );
    if ('dry_run' in result) return result;
    await this.settle(op, result.id, searchOutcome(result));
    return result;
  }

  async crawl(principal: Principal, sessionId: string, body: unknown): Promise<CrawlDetail | CrawlDryRun> {
    const { filter_seen_urls, ...input } = parseInput(SessionCrawlBody, body);
    const { crawls } = this.capabilities;
    await this.host.assertCanOperate(principal, sessionId);
    if (input.dry_run) return crawls.create(principal, { ...input, session_id: sessionId }, { sessionId });
    const op = await this.host.beginOperation(principal, sessionId, 'crawl', { urls: input.urls });
    // Seen URLs found while crawling are not fetched at all when they would be filtered out anyway.
    const skipUrls = filter_seen_urls ? [...op.seenUrls] : undefined;
    const result = await this.guard(op, () => crawls.create(principal, input, { sessionId, ...(skipUrls && { skipUrls }) }));
    if ('dry_run' in result) return result;
    const { kept, filtered } = applySessionUrlRules(result.documents, {
      seenUrls: op.seenUrls,
      filterSeenUrls: filter_seen_urls,
      autoDeduplicate: op.config.auto_deduplicate,
    });
    const shown = { ...result, documents: kept };
    await this.settle(op, result.id, crawlOutcome(shown, filtered));
    return shown;
  }

  async ask(principal: Principal, sessionId: string, body: unknown): Promise<AskResponse> {
    const input = parseInput(SessionAskBody, body);
    const { asks } = this.capabilities;
    await this.host.assertCanOperate(principal, sessionId);
    const op = await this.host.beginOperation(principal, sessionId, 'ask', { query: input.question });
    const context: AskContext = { sessionId, seenUrls: [...op.seenUrls] };
    if (op.context) {
      context.queryTerms = [...op.context.keywords, ...op.context.entities]
        .sort((a, b) => b.count - a.count)
        .slice(0, ASK_CONTEXT_TERMS)
        .map((t) => t.value);
    }
    const result = await this.guard(op, () => asks.create(principal, input, { context }));
    await this.host.finishOperation(op.operationId, {
      status: 'completed',
      documents: result.sources.map((s) => ({ url: s.url, title: s.title, text: s.passages.map((p) => p.text).join(' ') })),
      credits: result.credits.consumed,
      resultSummary: `${result.sources.length} sources, confidence ${result.confidence}`,
      resourceId: result.id,
    });
    return result;
  }

  /** Sync results finish the operation now; async ones link the job and finish on a later read. */
  private async settle(op: BegunOperation, resourceId: string, outcome: OperationOutcome | null): Promise<void> {
    if (outcome) await this.host.finishOperation(op.operationId, outcome);
    else await this.host.attachResource(op.operationId, resourceId);
  }

  /** An operation whose capability throws (no credits, bad input) is recorded as failed, then the error goes on. */
  private async guard<T>(op: BegunOperation, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      await this.host.finishOperation(op.operationId, { status: 'failed', error: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  }
}
