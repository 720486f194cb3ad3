import type pg from 'pg';
import { MINUTE, SECOND, type Clock } from '../../core/clock.js';
import type { RandomSource } from '../../core/ids.js';
import { ownerGone, ownerId } from '../../core/process-owner.js';
import { PgExecutor } from './executor.js';
import { PgJobsPort, type JobRecord, type JobSettlement } from './jobs-port.js';

// A worker loop over PgJobsPort, with the JobQueue contract's shape (producer calls async), so the
// port's guarantees are proven across processes now. store-c's StoreJobQueue (jobs/store-queue.ts)
// is the engine's loop over any driver's JobsPort: once the branches meet, StoreJobQueue over
// PgJobsPort (plus its `listen` for wake-ups and `completeWith`) replaces this class. Its types are
// local until then because the store may not import the jobs capability.
export type Job<P = unknown> = Omit<JobRecord, 'payload' | 'owner' | 'leaseUntil' | 'cancelRequested' | 'updatedAt'> & { payload: P };

export interface HandlerOptions {
  maxAttempts?: number;
  leaseMs?: number;
  backoff?: (attempts: number) => number;
  onFailed?: (job: Job) => unknown;
}

export interface EnqueueOptions {
  runAt?: Date | number;
  maxAttempts?: number;
  id?: string;
}

export interface RunOptions {
  limit?: number;
  kinds?: string[];
}

export interface PgJobContext<P = unknown> {
  job: Job<P>;
  signal: AbortSignal;
  heartbeat(): Promise<boolean>;
  /**
   * Runs `effect` and the job's success in ONE transaction, after checking (under the job row's lock)
   * that this worker still holds the lease: a job whose effects are written through it takes effect
   * exactly once, even when its worker is killed or stalls past its lease and another one takes over.
   * Throws (and aborts `signal`) when the lease was lost; the handler's return value is then ignored.
   */
  complete<R>(effect: (client: pg.ClientBase) => Promise<R>): Promise<R>;
}

export type PgJobHandler<P = unknown> = (ctx: PgJobContext<P>) => Promise<unknown>;

export interface PgJobQueueOptions {
  clock: Clock;
  random: RandomSource;
  /** Who this worker is in `jobs.owner`; default `host:pid:uuid`. */
  owner?: string;
}

type Row = JobRecord;

/** RescheduleJob (jobs/queue.ts) by shape: the store may not import the jobs capability. */
function rescheduled(error: unknown): number | undefined {
  return error instanceof Error && error.constructor.name === 'RescheduleJob' && typeof (error as { runAt?: unknown }).runAt === 'number'
    ? (error as unknown as { runAt: number }).runAt
    : undefined;
}

interface Registered {
  handler: PgJobHandler<unknown>;
  maxAttempts: number;
  leaseMs: number;
  backoff: (attempts: number) => number;
  onFailed: ((job: Job) => unknown) | undefined;
}

type AbortReason = 'cancel' | 'lost' | 'stop';

const DEFAULT_LEASE_MS = MINUTE;
const DEFAULT_MAX_ATTEMPTS = 5;
const MAX_POLL_BACKOFF_MS = 30 * SECOND;
const defaultBackoff = (attempts: number) => Math.min(SECOND * 2 ** (attempts - 1), 5 * MINUTE);

/**
 * The job queue on PostgreSQL, for any number of workers on any number of machines (every SQL
 * statement is PgJobsPort's):
 *
 * - Claims: `FOR UPDATE SKIP LOCKED` stamps due rows `running` with this worker as `owner` and a lease.
 * - Leases: renewed by their owner only (every third of the lease while the handler runs, and on
 *   `heartbeat()`); a worker that lost its lease finds out and aborts.
 * - Stalled or killed workers: a running row whose lease has passed is due again for any worker
 *   (a row owned by a dead process on this host is made due at once on start).
 * - Completion only while held; `ctx.complete(effect)` puts the effect in the same transaction.
 * - Wake-ups: NOTIFY on enqueue / reschedule wakes idle workers at once; a slow poll remains as the
 *   fallback and is how expired leases are noticed.
 *
 * Times are ms on the engine clock, as in the SQLite queue (machines' clocks must agree to well
 * within a lease; leases are a minute by default).
 */
export class PgJobQueue {
  private readonly handlers = new Map<string, Registered>();
  private readonly running = new Map<string, { abort: (reason: AbortReason) => void; done: Promise<Job> }>();
  readonly owner: string;
  private readonly port: PgJobsPort;
  private readonly ex: PgExecutor;
  private timer: NodeJS.Timeout | undefined;
  private polling: { pollMs: number; concurrency: number } | undefined;
  private setbacks = 0;
  private stopListening: (() => Promise<void>) | undefined;
  private ticking = false;
  private poked = false;

  constructor(
    pool: pg.Pool,
    private readonly options: PgJobQueueOptions,
  ) {
    this.ex = new PgExecutor(pool);
    this.port = new PgJobsPort(this.ex);
    this.owner = options.owner ?? ownerId(options.random);
  }

  register<P>(kind: string, handler: PgJobHandler<P>, options: HandlerOptions = {}): void {
    this.handlers.set(kind, {
      handler: handler as PgJobHandler<unknown>,
      maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS,
      backoff: options.backoff ?? defaultBackoff,
      onFailed: options.onFailed,
    });
    this.poke();
  }

  /** Inside `atomically` (of the same executor) the job commits with the caller's writes: an outbox. */
  async enqueue<P>(kind: string, payload: P, options: EnqueueOptions = {}): Promise<Job<P>> {
    const now = this.now();
    const row: Row = {
      id: options.id ?? this.options.random.uuid(),
      kind,
      payload,
      status: 'queued',
      attempts: 0,
      maxAttempts: options.maxAttempts ?? this.handlers.get(kind)?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      runAt: options.runAt === undefined ? now : new Date(options.runAt).getTime(),
      leaseUntil: null,
      owner: null,
      cancelRequested: false,
      lastError: null,
      result: null,
      createdAt: now,
      updatedAt: now,
      finishedAt: null,
    };
    await this.port.add(row);
    this.poke();
    return toJob(row) as Job<P>;
  }

  /** Runs `fn` as one transaction; enqueues inside it commit or roll back with it. */
  atomically<T>(fn: () => Promise<T>): Promise<T> {
    return this.ex.atomically(fn);
  }

  async get(id: string): Promise<Job | undefined> {
    const row = await this.port.get(id);
    return row ? toJob(row) : undefined;
  }

  async reschedule(id: string, runAt: Date | number): Promise<boolean> {
    const moved = await this.port.moveRunAt(id, new Date(runAt).getTime(), this.now());
    if (moved) this.poke();
    return moved;
  }

  async cancel(id: string): Promise<boolean> {
    const cancelled = await this.port.requestCancel(id, this.now());
    this.running.get(id)?.abort('cancel');
    return cancelled;
  }

  async runDue(options: RunOptions = {}): Promise<Job[]> {
    const { claimed, givenUp } = await this.claim(options.limit ?? 10, options.kinds);
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
    const {
      claimed: [row],
      givenUp,
    } = await this.claim(1, undefined, id);
    await this.announceFailures(givenUp);
    return row ? this.execute(row) : this.get(id);
  }

  start(options: { pollMs?: number; concurrency?: number } = {}): void {
    // NOTIFY wakes the worker, so the poll is only the fallback (and how leases that ran out are noticed).
    this.polling = { pollMs: options.pollMs ?? SECOND, concurrency: options.concurrency ?? 4 };
    void this.expireDeadOwners().finally(() => this.tick());
    this.stopListening = this.port.listen({
      onDue: (kind) => {
        if (!kind || this.handlers.has(kind)) this.poke();
      },
      onCancel: (id) => this.running.get(id)?.abort('cancel'),
    });
  }

  async stop(): Promise<void> {
    this.polling = undefined;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.stopListening?.();
    this.stopListening = undefined;
    const inFlight = [...this.running.values()];
    for (const r of inFlight) r.abort('stop');
    await Promise.allSettled(inFlight.map((r) => r.done));
  }

  private tick(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const polling = this.polling;
    if (!polling || this.ticking) return;
    const free = polling.concurrency - this.running.size;
    if (free <= 0) return this.schedule(polling.pollMs);
    // One claim of the poller in flight at a time; a poke meanwhile asks for another look right after.
    this.ticking = true;
    this.poked = false;
    this.claim(free)
      .then(({ claimed, givenUp }) => {
        this.setbacks = 0;
        void this.announceFailures(givenUp);
        for (const row of claimed) void this.execute(row).finally(() => this.poke());
        // A full batch means more may be due: look again at once.
        return claimed.length === free || this.poked ? 0 : polling.pollMs;
      })
      .catch((error: unknown) => {
        // The database is unreachable or failing: back off (doubling, capped) instead of crashing from a timer.
        process.emitWarning(`wvr job poller failed and will retry: ${error instanceof Error ? error.message : String(error)}`);
        this.setbacks++;
        return Math.min(polling.pollMs * 2 ** this.setbacks, MAX_POLL_BACKOFF_MS);
      })
      .then((delay) => {
        this.ticking = false;
        this.schedule(delay);
      });
  }

  private schedule(delay: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.polling) return;
    this.timer = setTimeout(() => this.tick(), delay);
    this.timer.unref();
  }

  /** Wakes the background loop early (new job, finished job) when it is running. */
  private poke(): void {
    if (!this.polling || this.setbacks > 0) return;
    if (this.ticking) this.poked = true;
    else this.schedule(0);
  }

  private claim(limit: number, kinds?: string[], onlyId?: string): Promise<{ claimed: Row[]; givenUp: string[] }> {
    const leases: Record<string, number> = {};
    for (const [kind, r] of this.handlers) if (!kinds || kinds.includes(kind)) leases[kind] = r.leaseMs;
    return this.port.claimDue({ owner: this.owner, leases, limit, now: this.now(), id: onlyId });
  }

  private async announceFailures(ids: readonly string[]): Promise<void> {
    for (const id of ids) await this.announceFailure(id);
  }

  private async announceFailure(id: string): Promise<void> {
    const job = await this.get(id);
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
    let completed = false;
    const abort = (why: AbortReason) => {
      if (reason) return;
      reason = why;
      controller.abort(new Error(`job ${why}`));
    };
    const beat = async (): Promise<boolean> => {
      if (reason) return false;
      const now = this.now();
      const renewal = await this.port.renewLease(row.id, this.owner, now + registered.leaseMs, now);
      if (renewal !== 'renewed') abort(renewal);
      return !reason;
    };
    // The owner renews its lease while the handler runs, so only a dead or frozen worker loses it.
    const renewal = setInterval(() => void beat().catch(() => undefined), Math.max(50, Math.floor(registered.leaseMs / 3)));
    renewal.unref();
    const complete = async <R>(effect: (client: pg.ClientBase) => Promise<R>): Promise<R> => {
      if (reason) throw new Error(`job ${reason}`);
      const outcome = await this.port.completeWith(row.id, this.owner, () => effect(this.ex.client()!), () => this.now());
      if (outcome.held !== 'renewed') {
        abort(outcome.held);
        throw new Error(`job ${outcome.held}`);
      }
      completed = true;
      return outcome.value;
    };
    const done = (async (): Promise<Job> => {
      try {
        const result = await registered.handler({ job: toJob(row), signal: controller.signal, heartbeat: beat, complete });
        if (!completed) {
          if (!reason) await beat().catch(() => undefined);
          await this.settle(row, reason, { status: 'succeeded', result: result ?? null });
        }
      } catch (error) {
        const runAt = rescheduled(error);
        if (completed) {
          // The outcome is already committed with its effect; what the handler did after is not the job's.
        } else if (runAt !== undefined && !reason) {
          await this.settleIfMine(row.id, { status: 'queued', runAt, attempts: row.attempts - 1, owner: null, leaseUntil: null });
        } else {
          const outcome = this.failure(row, registered, error);
          if ((await this.settle(row, reason, outcome)) && outcome.status === 'failed') await this.announceFailure(row.id);
        }
      } finally {
        clearInterval(renewal);
        this.running.delete(row.id);
      }
      return (await this.get(row.id))!;
    })().catch((error: unknown) => {
      // Settling itself failed (the database went away): the lease lapses and the job is claimed again later.
      clearInterval(renewal);
      this.running.delete(row.id);
      process.emitWarning(`wvr job ${row.id} could not record its outcome and will run again: ${error instanceof Error ? error.message : String(error)}`);
      return { ...toJob(row), status: 'running' as const };
    });
    this.running.set(row.id, { abort, done });
    return done;
  }

  /** Writes the outcome unless the job was cancelled (ends cancelled), stopped (back to the queue) or lost. */
  private async settle(row: Row, reason: AbortReason | undefined, outcome: JobSettlement): Promise<boolean> {
    if (reason === 'lost') return false;
    if (reason === 'cancel') {
      await this.settleIfMine(row.id, { status: 'cancelled' });
      return false;
    }
    if (reason === 'stop') {
      await this.settleIfMine(row.id, { status: 'queued', runAt: this.now(), attempts: row.attempts - 1, owner: null, leaseUntil: null });
      return false;
    }
    return this.settleIfMine(row.id, outcome);
  }

  private failure(row: Row, registered: Registered, error: unknown): JobSettlement {
    const lastError = error instanceof Error ? error.message : String(error);
    if (row.attempts >= row.maxAttempts) return { status: 'failed', lastError };
    return { status: 'queued', lastError, runAt: this.now() + registered.backoff(row.attempts), owner: null, leaseUntil: null };
  }

  private settleIfMine(id: string, changes: JobSettlement): Promise<boolean> {
    const now = this.now();
    const terminal = changes.status === 'succeeded' || changes.status === 'failed' || changes.status === 'cancelled';
    return this.port.settle(id, this.owner, { ...changes, ...(terminal ? { finishedAt: now, leaseUntil: null } : {}) }, now);
  }

  /** Running jobs whose owner was a process on this host that no longer exists are due at once. */
  private async expireDeadOwners(): Promise<void> {
    try {
      for (const row of await this.port.runningOwners()) if (ownerGone(row.owner)) await this.port.expireLease(row.id, row.owner!);
    } catch {
      // Their leases run out anyway.
    }
  }

  private now(): number {
    return this.options.clock.now().getTime();
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
