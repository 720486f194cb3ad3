import { and, eq, inArray, lte, or, sql } from 'drizzle-orm';
import type { EngineContext } from '../core/context.js';
import { MINUTE, SECOND } from '../core/clock.js';
import { storageProblem, storageRetryDelay } from '../core/storage.js';
import { ownerGone, ownerId } from '../core/process-owner.js';
import { jobs } from './tables.js';
import {
  RescheduleJob,
  type EnqueueOptions,
  type HandlerOptions,
  type Job,
  type JobHandler,
  type JobQueue,
  type RunOptions,
} from './queue.js';

type Row = typeof jobs.$inferSelect;
type AbortReason = 'cancel' | 'lost' | 'stop';

interface Registered {
  handler: JobHandler<unknown>;
  maxAttempts: number;
  leaseMs: number;
  backoff: (attempts: number) => number;
  onFailed: ((job: Job) => unknown) | undefined;
}

const DEFAULT_LEASE_MS = MINUTE;
const DEFAULT_MAX_ATTEMPTS = 5;
const MAX_POLL_BACKOFF_MS = 30 * SECOND;
const defaultBackoff = (attempts: number) => Math.min(SECOND * 2 ** (attempts - 1), 5 * MINUTE);

/**
 * The in-process queue over the engine's SQLite file. Claims run in IMMEDIATE transactions,
 * so two engines (in one process or two) never hold the same job; a job whose worker died is
 * claimed again once its lease passes, or at once when its owner was a dead process on this host.
 */
export class SqliteJobQueue implements JobQueue {
  private readonly handlers = new Map<string, Registered>();
  private readonly running = new Map<string, { abort: (reason: AbortReason) => void; done: Promise<Job> }>();
  private readonly owner: string;
  private timer: NodeJS.Timeout | undefined;
  private polling: { pollMs: number; concurrency: number } | undefined;
  /** Poller ticks in a row that could not claim (storage problems); the next tick waits longer each time. */
  private setbacks = 0;

  constructor(private readonly ctx: EngineContext) {
    this.owner = ownerId(ctx.random);
    this.expireDeadOwners();
  }

  register<P>(kind: string, handler: JobHandler<P>, options: HandlerOptions = {}): void {
    this.handlers.set(kind, {
      handler: handler as JobHandler<unknown>,
      maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS,
      backoff: options.backoff ?? defaultBackoff,
      onFailed: options.onFailed,
    });
    this.poke();
  }

  enqueue<P>(kind: string, payload: P, options: EnqueueOptions = {}): Job<P> {
    const now = this.now();
    const runAt = options.runAt === undefined ? now : new Date(options.runAt).getTime();
    const row: Row = {
      id: options.id ?? this.ctx.random.uuid(),
      kind,
      payload,
      status: 'queued',
      attempts: 0,
      maxAttempts: options.maxAttempts ?? this.handlers.get(kind)?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      runAt,
      leaseUntil: null,
      owner: null,
      cancelRequested: false,
      lastError: null,
      result: null,
      createdAt: now,
      updatedAt: now,
      finishedAt: null,
    };
    this.ctx.db.insert(jobs).values(row).run();
    this.poke();
    return toJob(row) as Job<P>;
  }

  get(id: string): Job | undefined {
    const row = this.ctx.db.select().from(jobs).where(eq(jobs.id, id)).get();
    return row ? toJob(row) : undefined;
  }

  reschedule(id: string, runAt: Date | number): boolean {
    const changed = this.ctx.db
      .update(jobs)
      .set({ runAt: new Date(runAt).getTime(), updatedAt: this.now() })
      .where(and(eq(jobs.id, id), eq(jobs.status, 'queued')))
      .run().changes;
    if (changed > 0) this.poke();
    return changed > 0;
  }

  cancel(id: string): boolean {
    const now = this.now();
    const changed = this.ctx.sqlite
      .transaction(() => {
        const row = this.ctx.db.select().from(jobs).where(eq(jobs.id, id)).get();
        if (!row) return false;
        if (row.status === 'queued') {
          this.ctx.db.update(jobs).set({ status: 'cancelled', updatedAt: now, finishedAt: now }).where(eq(jobs.id, id)).run();
          return true;
        }
        if (row.status === 'running') {
          this.ctx.db.update(jobs).set({ cancelRequested: true, updatedAt: now }).where(eq(jobs.id, id)).run();
          return true;
        }
        return false;
      })
      .immediate();
    this.running.get(id)?.abort('cancel');
    return changed;
  }

  async runDue(options: RunOptions = {}): Promise<Job[]> {
    const { claimed, givenUp } = this.claim(options.limit ?? 10, options.kinds);
    await this.announceFailures(givenUp);
    return Promise.all(claimed.map((row) => this.execute(row)));
  }

  async drain(options: RunOptions = {}): Promise<void> {
    for (;;) {
      const ran = await this.runDue(options);
      if (ran.length === 0) return;
    }
  }

  async runNow(id: string): Promise<Job | undefined> {
    const inFlight = this.running.get(id);
    if (inFlight) return inFlight.done;
    const { claimed: [row], givenUp } = this.claim(1, undefined, id);
    await this.announceFailures(givenUp);
    return row ? this.execute(row) : this.get(id);
  }

  start(options: { pollMs?: number; concurrency?: number } = {}): void {
    this.polling = { pollMs: options.pollMs ?? 250, concurrency: options.concurrency ?? 4 };
    this.tick();
  }

  async stop(): Promise<void> {
    this.polling = undefined;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const inFlight = [...this.running.values()];
    for (const r of inFlight) r.abort('stop');
    await Promise.allSettled(inFlight.map((r) => r.done));
  }

  private tick(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const polling = this.polling;
    if (!polling) return;
    const free = polling.concurrency - this.running.size;
    let delay = polling.pollMs;
    if (free > 0) {
      try {
        const { claimed, givenUp } = this.claim(free);
        this.setbacks = 0;
        void this.announceFailures(givenUp);
        for (const row of claimed) void this.execute(row).finally(() => this.poke());
      } catch (error) {
        // A busy database or a full disk: back off (doubling, capped) instead of crashing the process from a timer.
        const problem = storageProblem(error);
        if (!problem) process.emitWarning(`wvr job poller failed and will retry: ${error instanceof Error ? error.message : String(error)}`);
        this.setbacks++;
        delay = Math.min(Math.max(polling.pollMs, storageRetryDelay(problem ?? 'full')) * 2 ** (this.setbacks - 1), MAX_POLL_BACKOFF_MS);
      }
    }
    this.timer = setTimeout(() => this.tick(), delay);
    this.timer.unref();
  }

  /** Wakes the background loop early (new job, finished job) when it is running. */
  private poke(): void {
    if (!this.polling || this.setbacks > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), 0);
    this.timer.unref();
  }

  /** Claims what is due; jobs out of attempts are failed instead and returned as givenUp (ids) for their onFailed hooks. */
  private claim(limit: number, kinds?: string[], onlyId?: string): { claimed: Row[]; givenUp: string[] } {
    const registered = [...this.handlers.keys()].filter((k) => !kinds || kinds.includes(k));
    if (registered.length === 0 || limit <= 0) return { claimed: [], givenUp: [] };
    const now = this.now();
    const givenUp: string[] = [];
    const claimed = this.ctx.sqlite
      .transaction(() => {
        const candidates = this.ctx.db
          .select()
          .from(jobs)
          .where(
            and(
              inArray(jobs.kind, registered),
              onlyId ? eq(jobs.id, onlyId) : undefined,
              or(
                and(eq(jobs.status, 'queued'), lte(jobs.runAt, now)),
                and(eq(jobs.status, 'running'), lte(jobs.leaseUntil, now)),
              ),
            ),
          )
          .orderBy(jobs.runAt, jobs.createdAt)
          .limit(limit)
          .all();
        const claimed: Row[] = [];
        for (const row of candidates) {
          if (row.cancelRequested) {
            this.finish(row.id, { status: 'cancelled' }, now);
            continue;
          }
          if (row.attempts >= row.maxAttempts) {
            this.finish(row.id, { status: 'failed', lastError: row.lastError ?? 'its worker stopped answering too many times' }, now);
            givenUp.push(row.id);
            continue;
          }
          const leaseUntil = now + this.handlers.get(row.kind)!.leaseMs;
          this.ctx.db
            .update(jobs)
            .set({ status: 'running', owner: this.owner, leaseUntil, attempts: sql`${jobs.attempts} + 1`, updatedAt: now })
            .where(eq(jobs.id, row.id))
            .run();
          claimed.push({ ...row, status: 'running', owner: this.owner, leaseUntil, attempts: row.attempts + 1 });
        }
        return claimed;
      })
      .immediate();
    return { claimed, givenUp };
  }

  private async announceFailures(ids: readonly string[]): Promise<void> {
    for (const id of ids) await this.announceFailure(id);
  }

  private async announceFailure(id: string): Promise<void> {
    const job = this.get(id);
    const onFailed = job && this.handlers.get(job.kind)?.onFailed;
    if (!onFailed || job.status !== 'failed') return;
    try {
      await onFailed(job);
    } catch {
      // The job is failed either way; the owner's own reads settle what the hook could not.
    }
  }

  private execute(row: Row): Promise<Job> {
    const registered = this.handlers.get(row.kind)!;
    const controller = new AbortController();
    let reason: AbortReason | undefined;
    const abort = (why: AbortReason) => {
      if (reason) return;
      reason = why;
      controller.abort(new Error(`job ${why}`));
    };
    const beat = (): boolean => {
      if (reason) return false;
      const current = this.ctx.db.select().from(jobs).where(eq(jobs.id, row.id)).get();
      if (!current || current.owner !== this.owner || current.status !== 'running') abort('lost');
      else if (current.cancelRequested) abort('cancel');
      else {
        const now = this.now();
        this.ctx.db.update(jobs).set({ leaseUntil: now + registered.leaseMs, updatedAt: now }).where(eq(jobs.id, row.id)).run();
      }
      return !reason;
    };
    const heartbeat = async (): Promise<boolean> => beat();
    const done = (async (): Promise<Job> => {
      try {
        const result = await registered.handler({ job: toJob(row), signal: controller.signal, heartbeat });
        if (!reason) {
          try {
            beat();
          } catch {
            // The last look for a cancel could not be written; the outcome below still only lands if the job is ours.
          }
        }
        this.settle(row, reason, { status: 'succeeded', result: result ?? null });
      } catch (error) {
        const problem = storageProblem(error);
        if (error instanceof RescheduleJob && !reason) {
          this.settleIfMine(row.id, { status: 'queued', runAt: error.runAt, attempts: row.attempts - 1, owner: null, leaseUntil: null });
        } else if (problem && !reason) {
          // A busy database or a full disk passes: run again later without counting an attempt, never fail the job for it.
          const lastError = `${problem === 'busy' ? 'database busy' : 'storage full'}: ${error instanceof Error ? error.message : String(error)}`;
          this.settleIfMine(row.id, { status: 'queued', lastError, runAt: this.now() + storageRetryDelay(problem), attempts: row.attempts - 1, owner: null, leaseUntil: null });
        } else {
          const outcome = this.failure(row, registered, error);
          if (this.settle(row, reason, outcome) && outcome.status === 'failed') await this.announceFailure(row.id);
        }
      } finally {
        this.running.delete(row.id);
      }
      return this.get(row.id)!;
    })().catch((error: unknown) => {
      // Settling itself failed (disk full, database busy): the lease lapses and the job is claimed again
      // later. Nothing here may reject: the poller does not await its jobs.
      this.running.delete(row.id);
      process.emitWarning(`wvr job ${row.id} could not record its outcome and will run again: ${error instanceof Error ? error.message : String(error)}`);
      return { ...toJob(row), status: 'running' as const };
    });
    this.running.set(row.id, { abort, done });
    return done;
  }

  /**
   * Writes the outcome unless the job was cancelled (ends cancelled), stopped (back to the queue) or lost.
   * True when this outcome itself was recorded.
   */
  private settle(row: Row, reason: AbortReason | undefined, outcome: Partial<Row>): boolean {
    if (reason === 'lost') return false;
    if (reason === 'cancel') {
      this.settleIfMine(row.id, { status: 'cancelled' });
      return false;
    }
    if (reason === 'stop') {
      this.settleIfMine(row.id, { status: 'queued', runAt: this.now(), attempts: row.attempts - 1, owner: null, leaseUntil: null });
      return false;
    }
    return this.settleIfMine(row.id, outcome);
  }

  private failure(row: Row, registered: Registered, error: unknown): Partial<Row> {
    const lastError = error instanceof Error ? error.message : String(error);
    if (row.attempts >= row.maxAttempts) return { status: 'failed', lastError };
    return { status: 'queued', lastError, runAt: this.now() + registered.backoff(row.attempts), owner: null, leaseUntil: null };
  }

  private settleIfMine(id: string, changes: Partial<Row>): boolean {
    const now = this.now();
    const terminal = changes.status === 'succeeded' || changes.status === 'failed' || changes.status === 'cancelled';
    return this.ctx.db
      .update(jobs)
      .set({ ...changes, ...(terminal ? { finishedAt: now, leaseUntil: null } : {}), updatedAt: now })
      .where(and(eq(jobs.id, id), eq(jobs.owner, this.owner), eq(jobs.status, 'running')))
      .run().changes > 0;
  }

  private finish(id: string, changes: Partial<Row>, now: number): void {
    this.ctx.db.update(jobs).set({ ...changes, finishedAt: now, leaseUntil: null, updatedAt: now }).where(eq(jobs.id, id)).run();
  }

  /** A running job owned by a process on this host that no longer exists can be claimed at once. */
  private expireDeadOwners(): void {
    const rows = this.ctx.db.select({ id: jobs.id, owner: jobs.owner }).from(jobs).where(eq(jobs.status, 'running')).all();
    for (const row of rows) {
      if (!ownerGone(row.owner)) continue;
      this.ctx.db.update(jobs).set({ leaseUntil: 0 }).where(and(eq(jobs.id, row.id), eq(jobs.owner, row.owner!))).run();
    }
  }

  private now(): number {
    return this.ctx.clock.now().getTime();
  }
}

function toJob(row: Row): Job {
  return {
    id: row.id,
    kind: row.kind,
    payload: row.payload,
    status: row.status,
    attempts: row.attempts,
    maxAttempts: row.maxAttempts,
    runAt: row.runAt,
    lastError: row.lastError,
    result: row.result ?? null,
    createdAt: row.createdAt,
    finishedAt: row.finishedAt,
  };
}
