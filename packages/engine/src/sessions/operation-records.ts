import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { SharingService } from '../accounts/sharing.js';
import type { SharedResourceType } from '../accounts/schemas.js';
import type { EngineContext } from '../context.js';
import { errors } from '../core/errors.js';
import { accumulate, type ContextDocument } from './context.js';
import { applySessionUrlRules } from './filter.js';
import { summarizeContext, toOperationRecord, type OperationRow, type SessionRow } from './records.js';
import { MAX_RESULT_URLS, type SessionConfigValue, type SessionContextSummaryValue, type SessionOperationKind, type SessionOperationRecord } from './schemas.js';
import { sessionOperations, sessions, sessionSeenUrls } from '../store/sqlite/tables/sessions.js';

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
  begin(session: SessionRow, kind: SessionOperationKind, request: OperationRequest): BegunOperation {
    assertQuota(session);
    const now = this.ctx.clock.now().toISOString();
    const operationId = this.ctx.random.uuid();
    const seq = session.operationCount + 1;
    this.ctx.sqlite.transaction(() => {
      this.ctx.db
        .insert(sessionOperations)
        .values({
          id: operationId,
          sessionId: session.id,
          seq,
          kind,
          status: 'running',
          query: request.query ?? null,
          targetUrls: request.urls ?? [],
          startedAt: now,
        })
        .run();
      this.ctx.db
        .update(sessions)
        .set({ operationCount: sql`${sessions.operationCount} + 1`, lastActivityAt: now, updatedAt: now })
        .where(eq(sessions.id, session.id))
        .run();
    }).immediate();
    const seenUrls = this.seenUrls(session.id);
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
  attachResource(operationId: string, resourceId: string): void {
    const { op, session } = this.load(operationId);
    this.ctx.db.update(sessionOperations).set({ resourceId }).where(eq(sessionOperations.id, op.id)).run();
    this.link(op.kind, resourceId, session);
  }

  finish(operationId: string, outcome: OperationOutcome): SessionOperationRecord {
    const { op, session } = this.load(operationId);
    if (op.status !== 'running') {
      throw errors.conflict('operation_already_finished', `Operation ${op.id} already finished as ${op.status}.`, { details: { operation_id: op.id } });
    }
    const now = this.ctx.clock.now().toISOString();
    const documents = outcome.documents ?? [];
    this.ctx.sqlite.transaction(() => {
      // Only documents new to the session feed the context, so a page seen twice is not counted twice.
      const fresh = session.config.auto_deduplicate
        ? applySessionUrlRules(documents, { seenUrls: this.seenUrls(session.id), filterSeenUrls: true, autoDeduplicate: true }).kept
        : documents;
      for (const doc of documents) {
        this.ctx.db.insert(sessionSeenUrls).values({ sessionId: session.id, url: doc.url, operationId: op.id, seenAt: now }).onConflictDoNothing().run();
      }
      this.ctx.db
        .update(sessionOperations)
        .set({
          status: outcome.status,
          resultCount: documents.length,
          resultUrls: documents.slice(0, MAX_RESULT_URLS).map((d) => d.url),
          filteredCount: outcome.filteredCount ?? 0,
          resultSummary: outcome.resultSummary ?? null,
          credits: outcome.credits ?? 0,
          resourceId: outcome.resourceId ?? op.resourceId,
          error: outcome.error ?? null,
          finishedAt: now,
        })
        .where(eq(sessionOperations.id, op.id))
        .run();
      const context = session.config.accumulate_context && outcome.status === 'completed' ? accumulate(session.context, { query: op.query, documents: fresh }) : session.context;
      this.ctx.db.update(sessions).set({ context, lastActivityAt: now, updatedAt: now }).where(eq(sessions.id, session.id)).run();
    }).immediate();
    if (outcome.resourceId) this.link(op.kind, outcome.resourceId, session);
    return toOperationRecord(this.row(op.id)!);
  }

  list(sessionId: string): SessionOperationRecord[] {
    return this.ctx.db
      .select()
      .from(sessionOperations)
      .where(eq(sessionOperations.sessionId, sessionId))
      .orderBy(asc(sessionOperations.seq))
      .all()
      .map(toOperationRecord);
  }

  seenUrls(sessionId: string): Set<string> {
    const rows = this.ctx.db.select({ url: sessionSeenUrls.url }).from(sessionSeenUrls).where(eq(sessionSeenUrls.sessionId, sessionId)).all();
    return new Set(rows.map((r) => r.url));
  }

  seenCount(sessionId: string): number {
    return this.ctx.db.select({ n: count() }).from(sessionSeenUrls).where(eq(sessionSeenUrls.sessionId, sessionId)).get()?.n ?? 0;
  }

  /** The search jobs and crawls the session's operations produced, for cascading its org sharing. */
  childResources(sessionId: string): { type: SharedResourceType; id: string }[] {
    const rows = this.ctx.db
      .select({ kind: sessionOperations.kind, id: sessionOperations.resourceId })
      .from(sessionOperations)
      .where(and(eq(sessionOperations.sessionId, sessionId), inArray(sessionOperations.kind, ['search', 'crawl'])))
      .all();
    return rows.flatMap((r) => (r.id && RESOURCE_TYPE[r.kind] ? [{ type: RESOURCE_TYPE[r.kind]!, id: r.id }] : []));
  }

  private link(kind: SessionOperationKind, resourceId: string, session: SessionRow): void {
    const type = RESOURCE_TYPE[kind];
    if (type) this.sharing.link({ type, id: resourceId, ownerUserId: session.userId }, { type: 'session', id: session.id });
  }

  private load(operationId: string): { op: OperationRow; session: SessionRow } {
    const op = this.row(operationId);
    const session = op && this.ctx.db.select().from(sessions).where(eq(sessions.id, op.sessionId)).get();
    if (!op || !session) throw errors.notFound('session_operation', operationId);
    return { op, session };
  }

  private row(operationId: string): OperationRow | undefined {
    return this.ctx.db.select().from(sessionOperations).where(eq(sessionOperations.id, operationId)).get();
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
