import type { SharingService } from '../accounts/sharing.js';
import type { SharedResourceType } from '../accounts/schemas.js';
import type { EngineContext } from '../context.js';
import { errors } from '../core/errors.js';
import { accumulate, type ContextDocument } from './context.js';
import { applySessionUrlRules } from './filter.js';
import { summarizeContext, toOperationRecord, type OperationRow, type SessionRow } from './records.js';
import { MAX_RESULT_URLS, type SessionConfigValue, type SessionContextSummaryValue, type SessionOperationKind, type SessionOperationRecord } from './schemas.js';

export interface OperationRequest {
  /** The search query or question; feeds recent queries and entities. */
  query?: string;
  /** A crawl's seed URLs. */
  urls?: string[];
}

/** What a search, crawl or ask needs to run inside a session. */
export interface BegunOperation {
  operationId: string;
  sessionId: string;
  seq: number;
  config: SessionConfigValue;
  /** Every exact URL earlier operations of this session returned, for filter_seen_urls. */
  seenUrls: ReadonlySet<string>;
  /** The accumulated context for AI features; null when use_session_context is off. */
  context: SessionContextSummaryValue | null;
}

export interface OperationOutcome {
  status: 'completed' | 'failed';
  /** The results the caller returned (after filtering): their URLs become seen. */
  documents?: ContextDocument[];
  /** Results dropped by filter_seen_urls. */
  filteredCount?: number;
  credits?: number;
  resultSummary?: string;
  resourceId?: string;
  error?: string;
}

const RESOURCE_TYPE: Partial<Record<SessionOperationKind, SharedResourceType>> = { search: 'search_job', crawl: 'crawl' };

/** Operations recorded in a session: quota checks, seen URLs and context accumulation. */
export class SessionOperations {
  constructor(
    private readonly ctx: EngineContext,
    private readonly sharing: SharingService,
  ) {}

  /** Starts an operation in a session the caller already owns and has checked is active. */
  async begin(session: SessionRow, kind: SessionOperationKind, request: OperationRequest): Promise<BegunOperation> {
    assertQuota(session);
    const now = this.ctx.clock.now().toISOString();
    const operationId = this.ctx.random.uuid();
    const seq = session.operationCount + 1;
    await this.ctx.store.sessions.beginOperation({
      id: operationId,
      sessionId: session.id,
      seq,
      kind,
      query: request.query ?? null,
      targetUrls: request.urls ?? [],
      startedAt: now,
    });
    const seenUrls = await this.seenUrls(session.id);
    return {
      operationId,
      sessionId: session.id,
      seq,
      config: session.config,
      seenUrls,
      context: session.config.use_session_context ? summarizeContext(session, seenUrls.size) : null,
    };
  }

  /** Links the job an operation started (an async crawl) so the session's org sharing reaches it. */
  async attachResource(operationId: string, resourceId: string): Promise<void> {
    const { op, session } = await this.load(operationId);
    await this.ctx.store.sessions.setOperationResource(op.id, resourceId);
    await this.link(op.kind, resourceId, session);
  }

  async finish(operationId: string, outcome: OperationOutcome): Promise<SessionOperationRecord> {
    const documents = outcome.documents ?? [];
    // The seen URLs read and the outcome written in one transaction: two operations finishing at
    // once cannot both count the same new page in the context.
    const { op, session } = await this.ctx.store.atomically(async (tx) => {
      const { op, session } = await this.load(operationId);
      if (op.status !== 'running') {
        throw errors.conflict('operation_already_finished', `Operation ${op.id} already finished as ${op.status}.`, { details: { operation_id: op.id } });
      }
      // Only documents new to the session feed the context, so a page seen twice is not counted twice.
      const fresh = session.config.auto_deduplicate
        ? applySessionUrlRules(documents, { seenUrls: new Set(await tx.sessions.seenUrls(session.id)), filterSeenUrls: true, autoDeduplicate: true }).kept
        : documents;
      const context = session.config.accumulate_context && outcome.status === 'completed' ? accumulate(session.context, { query: op.query, documents: fresh }) : session.context;
      await tx.sessions.finishOperation({
        operationId: op.id,
        sessionId: session.id,
        fields: {
          status: outcome.status,
          resultCount: documents.length,
          resultUrls: documents.slice(0, MAX_RESULT_URLS).map((d) => d.url),
          filteredCount: outcome.filteredCount ?? 0,
          resultSummary: outcome.resultSummary ?? null,
          credits: outcome.credits ?? 0,
          resourceId: outcome.resourceId ?? op.resourceId,
          error: outcome.error ?? null,
        },
        seenUrls: documents.map((d) => d.url),
        context,
        at: this.ctx.clock.now().toISOString(),
      });
      return { op, session };
    });
    if (outcome.resourceId) await this.link(op.kind, outcome.resourceId, session);
    return toOperationRecord((await this.ctx.store.sessions.getOperation(op.id))!);
  }

  async list(sessionId: string): Promise<SessionOperationRecord[]> {
    return (await this.ctx.store.sessions.operations(sessionId)).map(toOperationRecord);
  }

  async seenUrls(sessionId: string): Promise<Set<string>> {
    return new Set(await this.ctx.store.sessions.seenUrls(sessionId));
  }

  seenCount(sessionId: string): Promise<number> {
    return this.ctx.store.sessions.seenCount(sessionId);
  }

  /** The search jobs and crawls the session's operations produced, for cascading its org sharing. */
  async childResources(sessionId: string): Promise<{ type: SharedResourceType; id: string }[]> {
    const rows = await this.ctx.store.sessions.operationResources(sessionId, ['search', 'crawl']);
    return rows.flatMap((r) => (RESOURCE_TYPE[r.kind] ? [{ type: RESOURCE_TYPE[r.kind]!, id: r.id }] : []));
  }

  private async link(kind: SessionOperationKind, resourceId: string, session: SessionRow): Promise<void> {
    const type = RESOURCE_TYPE[kind];
    if (type) await this.sharing.link({ type, id: resourceId, ownerUserId: session.userId }, { type: 'session', id: session.id });
  }

  private async load(operationId: string): Promise<{ op: OperationRow; session: SessionRow }> {
    const op = await this.ctx.store.sessions.getOperation(operationId);
    const session = op && (await this.ctx.store.sessions.get(op.sessionId));
    if (!op || !session) throw errors.notFound('session_operation', operationId);
    return { op, session };
  }
}

/** 409 when the session has used all its max_operations: checked by operations and by their dry runs alike. */
export function assertQuota(session: SessionRow): void {
  const max = session.config.max_operations;
  if (max !== undefined && session.operationCount >= max) {
    throw errors.conflict('session_max_operations_reached', `Session ${session.id} has reached its max_operations of ${max}.`, {
      details: { session_id: session.id, max_operations: max, operation_count: session.operationCount },
      suggestions: ['Raise session_config.max_operations with PATCH /v1/sessions/{id} (up to 100), or start a new session.'],
    });
  }
}
