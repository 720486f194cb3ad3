import type { Principal } from '../accounts/schemas.js';
import type { AccountsService } from '../accounts/service.js';
import type { ResourceRef, SharingService } from '../accounts/sharing.js';
import { DAY } from '../core/clock.js';
import type { EngineContext } from '../context.js';
import { every, type Loop } from '../core/every.js';
import { errors, WvrError } from '../core/errors.js';
import { parseInput } from '../core/validate.js';
import { emptyContext } from './context.js';
import { assertQuota, SessionOperations, type BegunOperation, type OperationOutcome, type OperationRequest } from './operation-records.js';
import { crawlOutcome, searchOutcome, type SessionJobReader } from './outcomes.js';
import { summarizeContext, toSessionRecord, type SessionRow } from './records.js';
import {
  SessionCreateBody,
  SessionListQuery,
  SessionPatchBody,
  SessionShareBody,
  type PublicSession,
  type PublicSessionTimeline,
  type SessionDetail,
  type SessionList,
  type SessionOperationKind,
  type SessionOperationRecord,
  type SessionRecord,
  type SessionTimeline,
} from './schemas.js';
import type { SessionListFilter } from '../store/ports/sessions.js';

/** Active and completed sessions count against this; archived ones free their slot. */
export const MAX_OPEN_SESSIONS = 100;
/** A session with no activity for this long is archived on the next sweep. */
export const AUTO_ARCHIVE_AFTER_MS = 7 * DAY;

/** How often a working engine archives idle sessions when nobody reads them, in ms of wall time. */
export const SWEEP_INTERVAL_MS = 60_000;

export class SessionsService {
  private readonly operations: SessionOperations;
  private sweeper: Loop | undefined;

  constructor(
    private readonly ctx: EngineContext,
    private readonly accounts: AccountsService,
    private readonly sharing: SharingService,
    /** Reads the async searches and crawls operations are waiting on; engine.ts builds those services first. */
    private readonly jobs: SessionJobReader,
  ) {
    this.operations = new SessionOperations(ctx, sharing);
  }

  async create(principal: Principal, body: unknown): Promise<SessionRecord> {
    const input = parseInput(SessionCreateBody, body);
    const now = this.now();
    const id = this.ctx.random.uuid();
    // The count and the insert in one transaction: two creates at once cannot both take the last slot.
    await this.ctx.store.atomically(async (tx) => {
      await this.sweep();
      const open = await tx.sessions.countOpen(principal.userId);
      if (open >= MAX_OPEN_SESSIONS) {
        throw errors.conflict('session_limit_reached', `You already have ${open} active or completed sessions; the limit is ${MAX_OPEN_SESSIONS}.`, {
          details: { limit: MAX_OPEN_SESSIONS, open_sessions: open },
          suggestions: ['Archive completed sessions (POST /v1/sessions/{id}/archive) or delete ones you no longer need.'],
        });
      }
      await tx.sessions.insert({
        id,
        userId: principal.userId,
        name: input.name,
        description: input.description ?? null,
        intentContext: input.intent_context ?? null,
        status: 'active',
        config: input.session_config,
        metadata: input.metadata ?? {},
        context: emptyContext(),
        operationCount: 0,
        createdAt: now,
        updatedAt: now,
        lastActivityAt: now,
        completedAt: null,
        archivedAt: null,
        archivedReason: null,
      });
    });
    return this.record((await this.row(id))!);
  }

  async list(principal: Principal, query: unknown): Promise<SessionList> {
    const input = parseInput(SessionListQuery, query, 'query');
    await this.sweep();
    const own = this.listFilter(input, { userId: principal.userId });
    const total = await this.ctx.store.sessions.count(own);
    const rows = await this.ctx.store.sessions.list(own, input);
    const page: SessionList = { data: await this.records(rows), total, limit: input.limit, offset: input.offset };
    if (!input.include_shared) return page;
    const shared = await this.ctx.store.sessions.list(this.listFilter(input, { ids: await this.sharing.sharedWithMe(principal, 'session') }), { limit: input.limit, offset: 0 });
    return { ...page, shared_sessions: await this.records(shared), user_organizations: await this.organizationsOf(principal) };
  }

  async get(principal: Principal, id: string): Promise<SessionDetail> {
    await this.sweep();
    const row = await this.row(id);
    if (!row) throw errors.notFound('session', id);
    const accessLevel = await this.sharing.assertCanRead(principal, ref(row));
    await this.refreshRunning(row);
    return {
      ...(await this.record(row)),
      operations: await this.operations.list(row.id),
      context_summary: summarizeContext(row, await this.operations.seenCount(row.id)),
      access_level: accessLevel,
      user_organizations: await this.organizationsOf(principal),
    };
  }

  async patch(principal: Principal, id: string, body: unknown): Promise<SessionRecord> {
    const input = parseInput(SessionPatchBody, body);
    const row = await this.owned(principal, id);
    if (row.status === 'archived') throw archivedError(row.id, 'changed');
    const now = this.now();
    await this.ctx.store.sessions.update(row.id, {
      ...(input.name !== undefined && { name: input.name }),
      ...(input.description !== undefined && { description: input.description }),
      ...(input.intent_context !== undefined && { intentContext: input.intent_context }),
      ...((input.config ?? input.session_config) !== undefined && {
        config: { ...row.config, ...stripUndefined(input.config ?? {}), ...stripUndefined(input.session_config ?? {}) },
      }),
      updatedAt: now,
      lastActivityAt: now,
    });
    return this.record((await this.row(row.id))!);
  }

  /** Permanent: the session, its operations and its seen URLs (the crawls and search jobs it ran stay). */
  async delete(principal: Principal, id: string): Promise<SessionRecord> {
    const row = await this.owned(principal, id);
    const record = await this.record(row);
    await this.ctx.store.atomically(async (tx) => {
      await tx.sessions.delete(row.id);
      await this.sharing.forget('session', row.id);
    });
    return record;
  }

  async complete(principal: Principal, id: string): Promise<SessionRecord> {
    const row = await this.owned(principal, id);
    if (row.status === 'completed') throw errors.conflict('session_already_completed', `Session ${row.id} is already completed.`, { details: { session_id: row.id } });
    if (row.status === 'archived') throw archivedError(row.id, 'completed');
    return this.transition(row, { status: 'completed', completedAt: this.now() });
  }

  async archive(principal: Principal, id: string): Promise<SessionRecord> {
    const row = await this.owned(principal, id);
    if (row.status === 'archived') throw errors.conflict('session_already_archived', `Session ${row.id} is already archived.`, { details: { session_id: row.id } });
    if (row.status !== 'completed') {
      throw errors.conflict('session_not_completed', `Only a completed session can be archived; session ${row.id} is ${row.status}.`, {
        details: { session_id: row.id, status: row.status },
        suggestions: ['Complete it first with POST /v1/sessions/{id}/complete.'],
      });
    }
    return this.transition(row, { status: 'archived', archivedAt: this.now(), archivedReason: 'manual' });
  }

  /**
   * Archives every session whose last activity is at least 7 days old. Runs before every session
   * read or write, so the rule holds with or without a periodic caller.
   */
  sweep(): Promise<number> {
    const now = this.ctx.clock.now();
    const cutoff = new Date(now.getTime() - AUTO_ARCHIVE_AFTER_MS).toISOString();
    return this.ctx.store.sessions.archiveIdle(cutoff, now.toISOString());
  }

  /**
   * Background sweeping for engine.start(): idle sessions are archived on time even when no one
   * reads or writes sessions (the lazy sweep before every session call stays).
   */
  start(intervalMs = SWEEP_INTERVAL_MS): void {
    this.sweeper ??= every(intervalMs, () => this.sweep());
  }

  /** Stops the loop; a sweep in flight is one statement and ends on its own. */
  stop(): void {
    void this.sweeper?.stop();
    this.sweeper = undefined;
  }

  async share(principal: Principal, id: string, body: unknown) {
    const row = await this.owned(principal, id);
    const state = await this.sharing.share(principal, ref(row), parseInput(SessionShareBody, body), { cascadeTo: await this.operations.childResources(row.id) });
    return { id: row.id, ...state };
  }

  async timeline(principal: Principal, id: string): Promise<SessionTimeline> {
    await this.sweep();
    const row = await this.row(id);
    if (!row) throw errors.notFound('session', id);
    await this.sharing.assertCanRead(principal, ref(row));
    await this.refreshRunning(row);
    const data = await this.operations.list(row.id);
    return { session_id: row.id, data, total: data.length };
  }

  async publicGet(id: string): Promise<PublicSession> {
    const row = await this.publicRow(id);
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      intent_context: row.intentContext,
      status: row.status,
      metadata: row.metadata,
      operation_count: row.operationCount,
      created_at: row.createdAt,
      last_activity_at: row.lastActivityAt,
      access_level: 'public',
      operations: (await this.operations.list(row.id)).map(withoutResource),
      context_summary: summarizeContext(row, await this.operations.seenCount(row.id)),
    };
  }

  async publicTimeline(id: string): Promise<PublicSessionTimeline> {
    const row = await this.publicRow(id);
    const data = (await this.operations.list(row.id)).map(withoutResource);
    return { session_id: row.id, data, total: data.length };
  }

  /**
   * For the session runners and workflows: checks the session is the caller's and
   * active, counts the operation, and hands back the seen URLs and context to use.
   */
  async beginOperation(principal: Principal, sessionId: string, kind: SessionOperationKind, request: OperationRequest = {}): Promise<BegunOperation> {
    return this.operations.begin(await this.assertUsable(principal, sessionId), kind, request);
  }

  /** assertUsable plus the max_operations quota: what an operation, or its dry run, would be refused for. */
  async assertCanOperate(principal: Principal, sessionId: string): Promise<void> {
    assertQuota(await this.assertUsable(principal, sessionId));
  }

  /** The caller's own session, if it still takes operations: 404 foreign, 409 completed or archived. */
  async assertUsable(principal: Principal, sessionId: string): Promise<SessionRow> {
    const row = await this.owned(principal, sessionId);
    if (row.status === 'completed') {
      throw errors.conflict('session_completed', `Session ${row.id} is completed and takes no new operations.`, {
        details: { session_id: row.id },
        suggestions: ['Start a new session for further work.'],
      });
    }
    if (row.status === 'archived') throw archivedError(row.id, 'used');
    return row;
  }

  /** Records how the operation ended: its result URLs become seen, and its results feed the context. */
  finishOperation(operationId: string, outcome: OperationOutcome): Promise<SessionOperationRecord> {
    return this.operations.finish(operationId, outcome);
  }

  /** For async jobs: links the crawl or search job to the session as soon as it exists. */
  attachResource(operationId: string, resourceId: string): Promise<void> {
    return this.operations.attachResource(operationId, resourceId);
  }

  /** Finishes operations whose async search or crawl has ended since they were recorded. */
  private async refreshRunning(row: SessionRow): Promise<void> {
    const running = (await this.operations.list(row.id)).filter((op) => op.status === 'running' && op.resource_id);
    if (running.length === 0) return;
    const owner = this.accounts.localPrincipal(await this.accounts.getUser(row.userId));
    for (const op of running) {
      try {
        await this.refresh(owner, op.id, op.kind, op.resource_id!);
      } catch (error) {
        if (!(error instanceof WvrError) || error.status !== 404) throw error;
        await this.operations.finish(op.id, { status: 'failed', error: `Its ${op.kind} no longer exists.` });
      }
    }
  }

  /** Finishes one operation if its search or crawl has ended; one still running stays as it is. */
  private async refresh(owner: Principal, operationId: string, kind: SessionOperationKind, resourceId: string): Promise<void> {
    let outcome: OperationOutcome | null = null;
    if (kind === 'search') outcome = searchOutcome(await this.jobs.search.get(owner, resourceId));
    else if (kind === 'crawl') outcome = crawlOutcome(await this.jobs.crawls.get(owner, resourceId), 0);
    if (outcome) await this.operations.finish(operationId, outcome);
  }

  private listFilter(input: { status?: SessionRow['status'] | undefined; tag?: string | undefined; days_back: number }, owner: SessionListFilter['owner']): SessionListFilter {
    const activeSince = new Date(this.ctx.clock.now().getTime() - input.days_back * DAY).toISOString();
    return { owner, activeSince, status: input.status, tag: input.tag };
  }

  private async transition(row: SessionRow, set: Partial<SessionRow>): Promise<SessionRecord> {
    const now = this.now();
    await this.ctx.store.sessions.update(row.id, { ...set, updatedAt: now, lastActivityAt: now });
    return this.record((await this.row(row.id))!);
  }

  /** The caller's own session. An org viewer may read it but not change it; anyone else gets 404. */
  private async owned(principal: Principal, id: string): Promise<SessionRow> {
    await this.sweep();
    const row = await this.row(id);
    if (!row) throw errors.notFound('session', id);
    await this.sharing.assertOwner(principal, ref(row));
    return row;
  }

  private async publicRow(id: string): Promise<SessionRow> {
    await this.sweep();
    const row = await this.row(id);
    if (!row) throw errors.notFound('session', id);
    await this.sharing.assertPublic(ref(row));
    await this.refreshRunning(row);
    return row;
  }

  private row(id: string): Promise<SessionRow | undefined> {
    return this.ctx.store.sessions.get(id);
  }

  private async record(row: SessionRow): Promise<SessionRecord> {
    return toSessionRecord(row, await this.sharing.state('session', row.id));
  }

  private records(rows: SessionRow[]): Promise<SessionRecord[]> {
    return Promise.all(rows.map((r) => this.record(r)));
  }

  private async organizationsOf(principal: Principal) {
    return (await this.accounts.organizationsOf(principal.userId)).map((o) => ({ id: o.id, name: o.name }));
  }

  private now(): string {
    return this.ctx.clock.now().toISOString();
  }
}

const ref = (row: SessionRow): ResourceRef => ({ type: 'session', id: row.id, ownerUserId: row.userId });

const archivedError = (id: string, verb: string) =>
  errors.conflict('session_archived', `Session ${id} is archived and cannot be ${verb}.`, {
    details: { session_id: id },
    suggestions: ['Start a new session; archived sessions are read-only.'],
  });

const withoutResource = ({ resource_id: _resource, ...op }: SessionOperationRecord) => op;

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
