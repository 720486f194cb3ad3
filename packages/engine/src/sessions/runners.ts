import type { Principal } from '../accounts/schemas.js';
import type { AskContext, AskResponse } from '../ask/schemas.js';
import type { CrawlDetail, CrawlDryRun } from '../crawl/responses.js';
import type { CrawlCreateOptions } from '../crawl/service.js';
import { errors } from '../core/errors.js';
import { parseInput } from '../core/validate.js';
import type { SearchDryRun, SearchJob } from '../search/schemas.js';
import type { SearchSessionContext } from '../search/schemas.js';
import type { ContextDocument } from './context.js';
import { applySessionUrlRules } from './filter.js';
import type { BegunOperation, OperationOutcome, OperationRequest } from './operation-records.js';
import { SessionAskBody, SessionCrawlBody, SessionSearchBody, type SessionOperationKind } from './schemas.js';

/** The parts of the search, crawl and ask services a session drives; engine.ts connects them. */
export interface SessionCapabilities {
  search: {
    search(principal: Principal, body: unknown, session?: SearchSessionContext): Promise<SearchJob | SearchDryRun>;
    get(principal: Principal | null, id: string): SearchJob;
  };
  crawls: {
    create(principal: Principal, body: unknown, options?: CrawlCreateOptions): Promise<CrawlDetail | CrawlDryRun>;
    get(principal: Principal | null, id: string): CrawlDetail | Promise<CrawlDetail>;
  };
  asks: {
    create(principal: Principal, body: unknown, options?: { context?: AskContext }): Promise<AskResponse>;
  };
}

/** What the runners need from the sessions service. */
export interface SessionHost {
  /** 404 foreign, 409 completed, archived or out of max_operations: a dry run answers what the call would. */
  assertCanOperate(principal: Principal, sessionId: string): unknown;
  beginOperation(principal: Principal, sessionId: string, kind: SessionOperationKind, request?: OperationRequest): BegunOperation;
  finishOperation(operationId: string, outcome: OperationOutcome): unknown;
  attachResource(operationId: string, resourceId: string): void;
}

/** How many of the session's keywords and entities widen an ask's retrieval query. */
const ASK_CONTEXT_TERMS = 6;

/**
 * POST /v1/sessions/{id}/search|crawl|ask: checks the session, records the operation around the
 * capability's own call (which charges what the plain operation charges), applies the session's
 * URL rules and feeds the results back into the session.
 */
export class SessionRunners {
  private capabilities: Partial<SessionCapabilities> = {};

  constructor(private readonly host: SessionHost) {}

  connect(capabilities: Partial<SessionCapabilities>): void {
    this.capabilities = { ...this.capabilities, ...capabilities };
  }

  async search(principal: Principal, sessionId: string, body: unknown): Promise<SearchJob | SearchDryRun> {
    const { filter_seen_urls, ...input } = parseInput(SessionSearchBody, body);
    const search = this.capability('search');
    this.host.assertCanOperate(principal, sessionId);
    if (input.dry_run) return search.search(principal, { ...input, session_id: sessionId }, { sessionId });
    const op = this.host.beginOperation(principal, sessionId, 'search', { query: input.query });
    const result = await this.guard(op, () =>
      search.search(principal, input, {
        sessionId,
        intentType: op.context?.intent_type ?? null,
        seenUrls: [...op.seenUrls],
        filterSeenUrls: filter_seen_urls,
      }),
    );
    if ('dry_run' in result) return result;
    this.settle(op, result.id, searchOutcome(result));
    return result;
  }

  async crawl(principal: Principal, sessionId: string, body: unknown): Promise<CrawlDetail | CrawlDryRun> {
    const { filter_seen_urls, ...input } = parseInput(SessionCrawlBody, body);
    const crawls = this.capability('crawls');
    this.host.assertCanOperate(principal, sessionId);
    if (input.dry_run) return crawls.create(principal, { ...input, session_id: sessionId }, { sessionId });
    const op = this.host.beginOperation(principal, sessionId, 'crawl', { urls: input.urls });
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
    this.settle(op, result.id, crawlOutcome(shown, filtered));
    return shown;
  }

  async ask(principal: Principal, sessionId: string, body: unknown): Promise<AskResponse> {
    const input = parseInput(SessionAskBody, body);
    const asks = this.capability('asks');
    this.host.assertCanOperate(principal, sessionId);
    const op = this.host.beginOperation(principal, sessionId, 'ask', { query: input.question });
    const context: AskContext = { sessionId, seenUrls: [...op.seenUrls] };
    if (op.context) {
      context.queryTerms = [...op.context.keywords, ...op.context.entities]
        .sort((a, b) => b.count - a.count)
        .slice(0, ASK_CONTEXT_TERMS)
        .map((t) => t.value);
    }
    const result = await this.guard(op, () => asks.create(principal, input, { context }));
    this.host.finishOperation(op.operationId, {
      status: 'completed',
      documents: result.sources.map((s) => ({ url: s.url, title: s.title, text: s.passages.map((p) => p.text).join(' ') })),
      credits: result.credits.consumed,
      resultSummary: `${result.sources.length} sources, confidence ${result.confidence}`,
      resourceId: result.id,
    });
    return result;
  }

  /**
   * For a search or crawl still running when it was recorded (async, webhook): reads the job
   * and finishes the operation once the job has ended. Returns false while it still runs.
   */
  async refresh(principal: Principal, op: { id: string; kind: SessionOperationKind; resourceId: string }): Promise<boolean> {
    if (op.kind === 'search' && this.capabilities.search) {
      const job = this.capabilities.search.get(principal, op.resourceId);
      const outcome = searchOutcome(job);
      if (!outcome) return false;
      this.host.finishOperation(op.id, outcome);
      return true;
    }
    if (op.kind === 'crawl' && this.capabilities.crawls) {
      const crawl = await this.capabilities.crawls.get(principal, op.resourceId);
      const outcome = crawlOutcome(crawl, 0);
      if (!outcome) return false;
      this.host.finishOperation(op.id, outcome);
      return true;
    }
    return false;
  }

  /** Sync results finish the operation now; async ones link the job and finish on a later read. */
  private settle(op: BegunOperation, resourceId: string, outcome: OperationOutcome | null): void {
    if (outcome) this.host.finishOperation(op.operationId, outcome);
    else this.host.attachResource(op.operationId, resourceId);
  }

  /** An operation whose capability throws (no credits, bad input) is recorded as failed, then the error goes on. */
  private async guard<T>(op: BegunOperation, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      this.host.finishOperation(op.operationId, { status: 'failed', error: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  }

  private capability<K extends keyof SessionCapabilities>(kind: K): SessionCapabilities[K] {
    const found = this.capabilities[kind];
    if (!found) {
      throw errors.conflict('capability_unavailable', `This engine has no ${kind} service connected, so sessions cannot run it.`, {
        details: { capability: kind },
      });
    }
    return found;
  }
}

function searchOutcome(job: SearchJob): OperationOutcome | null {
  if (job.status === 'pending' || job.status === 'running') return null;
  return {
    status: job.status,
    documents: job.results.map((r): ContextDocument => ({ url: r.url, title: r.title, text: r.description, document_type: r.source_type })),
    credits: job.credits.consumed,
    resultSummary: `${job.results.length} results`,
    resourceId: job.id,
    ...(job.error ? { error: job.error } : {}),
  };
}

function crawlOutcome(crawl: CrawlDetail, filtered: number): OperationOutcome | null {
  if (crawl.status === 'pending' || crawl.status === 'running') return null;
  return {
    status: crawl.status === 'completed' ? 'completed' : 'failed',
    documents: crawl.documents.map((d) => ({
      url: d.url,
      title: d.title,
      text: d.text,
      content_type: d.content_type,
      document_type: d.classification?.label ?? null,
    })),
    filteredCount: filtered,
    credits: crawl.stats.credits_used,
    resultSummary: `${crawl.documents.length} pages`,
    resourceId: crawl.id,
    ...(crawl.error ? { error: crawl.error } : {}),
  };
}
