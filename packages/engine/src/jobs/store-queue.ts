import { MINUTE, SECOND, type Clock } from '../core/clock.js';
import type { RandomSource } from '../core/ids.js';
import { storageProblem, storageRetryDelay } from '../core/storage.js';
import { ownerGone, ownerId } from '../core/process-owner.js';
import type { JobRecord, JobSettlement, JobsPort, LeaseRenewal } from '../store/ports/jobs.js';
import {
  RescheduleJob,
  type EnqueueOptions,
  type HandlerOptions,
  type Job,
  type JobHandler,
  type JobQueue,
  type RunOptions,
} from './queue.js';

type Row = JobRecord;
type AbortReason = 'cancel' | 'lost' | 'stop';

/** What the queue runs over: the store's jobs port and its transactions (an engine's context is one). */
export interface QueueContext {
  store: { jobs: JobsPort; atomically<T>(fn: (tx: { jobs: JobsPort }) => Promise<T>): Promise<T> };
  clock: Clock;
  random: RandomSource;
}

class NotHeld extends Error {
  constructor(readonly held: 'lost' | 'cancel') {
    super(`job ${held}`);
  }
}

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
 * The queue over the store's `jobs` port, whatever its driver. The port claims atomically, so two
 * engines (in one process or on two machines) never hold the same job; a job whose worker died is
 * claimed again once its lease passes, or at once when its owner was a dead process on this host.
 */
export class StoreJobQueue implements JobQueue {
  private readonly handlers = new Map<string, Registered>();
  private readonly running = new Map<string, { abort: (reason: AbortReason) => void; done: Promise<Job> }>();
  /** Who this queue is in a running job's `owner` (`host:pid:uuid`). */
  readonly owner: string;
  private stopListening: (() => Promise<void>) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private polling: { pollMs: number; concurrency: number } | undefined;
  /** Poller ticks in a row that could not claim (storage problems); the next tick waits longer each time. */
  private setbacks = 0;
  /** The poller's claim while it is out; `poked` says something asked for another look meanwhile. */
  private ticking: Promise<void> | undefined;
  private poked = false;

  /** Dead owners' leases lapse before this queue's first claim. */
  private readonly ready: Promise<void>;

  constructor(private readonly ctx: QueueContext) {
    this.owner = ownerId(ctx.random);
    // A failure here only delays a dead worker's jobs until their leases pass.
    this.ready = this.expireDeadOwners().catch(() => undefined);
  }

  private get store(): JobsPort {
    return this.ctx.store.jobs;
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

  async enqueue<P>(kind: string, payload: P, options: EnqueueOptions = {}): Promise<Job<P>> {
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
    await this.store.add(row);
    this.poke();
    return toJob(row) as Job<P>;
  }

  async get(id: string): Promise<Job | undefined> {
    const row = await this.store.get(id);
    return row ? toJob(row) : undefined;
  }

  async reschedule(id: string, runAt: Date | number): Promise<boolean> {
    const moved = await this.store.moveRunAt(id, new Date(runAt).getTime(), this.now());
    if (moved) this.poke();
    return moved;
  }

  async cancel(id: string): Promise<boolean> {
    const cancelled = await this.store.requestCancel(id, this.now());
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
    const { claimed: [row], givenUp } = await this.claim(1, undefined, id);
    await this.announceFailures(givenUp);
    return row ? this.execute(row) : this.get(id);
  }

  start(options: { pollMs?: number; concurrency?: number } = {}): void {
    this.polling = { pollMs: options.pollMs ?? 250, concurrency: options.concurrency ?? 4 };
    this.tick();
    // Drivers shared by several processes wake idle workers when another process enqueues or cancels.
    this.stopListening ??= this.store.listen?.({
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
    // Jobs a claim still out brings back are started, then stopped with the rest: back to the queue.
    await this.ticking;
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
    if (free <= 0) {
      this.schedule(polling.pollMs);
      return;
    }
    this.ticking = this.claim(free)
      .then(({ claimed, givenUp }) => {
        this.setbacks = 0;
        void this.announceFailures(givenUp).catch(() => undefined);
        for (const row of claimed) void this.execute(row).finally(() => this.poke());
        // A full batch means more may be due: look again as soon as a runner is free.
        return claimed.length === free ? 0 : polling.pollMs;
      })
      .catch((error: unknown) => {
        // A busy database or a full disk: back off (doubling, capped) instead of crashing the process from a timer.
        const problem = storageProblem(error);
        if (!problem) process.emitWarning(`wvr job poller failed and will retry: ${error instanceof Error ? error.message : String(error)}`);
        this.setbacks++;
        return Math.min(Math.max(polling.pollMs, storageRetryDelay(problem ?? 'full')) * 2 ** (this.setbacks - 1), MAX_POLL_BACKOFF_MS);
      })
      .then((delay) => {
        this.ticking = undefined;
        // Stopped, or restarted with new settings, while the claim was out: that start has its own loop.
        if (this.polling === polling) this.schedule(this.poked ? 0 : delay);
        this.poked = false;
      });
  }

  private schedule(delay: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), delay);
    this.timer.unref();
  }

  /** Wakes the background loop early (new job, finished job) when it is running. */
  private poke(): void {
    if (!this.polling || this.setbacks > 0) return;
    // A claim is out: look again as soon as it returns rather than claiming twice at once.
    if (this.ticking) this.poked = true;
    else this.schedule(0);
  }

  /** Claims what is due; jobs out of attempts are failed instead and returned as givenUp (ids) for their onFailed hooks. */
  private async claim(limit: number, kinds?: string[], onlyId?: string): Promise<{ claimed: Row[]; givenUp: string[] }> {
    const leases: Record<string, number> = {};
    for (const [kind, registered] of this.handlers) if (!kinds || kinds.includes(kind)) leases[kind] = registered.leaseMs;
    if (Object.keys(leases).length === 0 || limit <= 0) return { claimed: [], givenUp: [] };
    await this.ready;
    return this.store.claimDue({ owner: this.owner, leases, limit, now: this.now(), id: onlyId });
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
    const abort = (why: AbortReason) => {
      if (reason) return;
      reason = why;
      controller.abort(new Error(`job ${why}`));
    };
    /** Whether the job is still held, after a lease check `check` the store made; a lost or cancelled job aborts. */
    const stillHeld = async (check: () => Promise<LeaseRenewal>): Promise<boolean> => {
      if (reason) return false;
      const held = await check();
      if (held !== 'renewed') abort(held);
      return !reason;
    };
    const heartbeat = () => {
      const now = this.now();
      return stillHeld(() => this.store.renewLease(row.id, this.owner, now + registered.leaseMs, now));
    };
    const holds = () => stillHeld(() => this.store.lockHeld(row.id, this.owner));
    // The holder renews its lease while the handler runs, so only a dead or frozen worker loses it.
    const renewals = setInterval(() => void heartbeat().catch(() => undefined), Math.max(50, Math.floor(registered.leaseMs / 3)));
    renewals.unref();
    let completed = false;
    const complete = async <R>(effect: () => Promise<R>): Promise<R> => {
      if (reason) throw new NotHeld(reason === 'cancel' ? 'cancel' : 'lost');
      try {
        const value = await this.ctx.store.atomically(async (tx) => {
          const held = await tx.jobs.lockHeld(row.id, this.owner);
          if (held !== 'renewed') throw new NotHeld(held);
          const result = await effect();
          const now = this.now();
          await tx.jobs.settle(row.id, this.owner, { status: 'succeeded', result: result ?? null, finishedAt: now, leaseUntil: null }, now);
          return result;
        });
        completed = true;
        return value;
      } catch (error) {
        if (error instanceof NotHeld) abort(error.held);
        throw error;
      }
    };
    const done = (async (): Promise<Job> => {
      try {
        const result = await registered.handler({ job: toJob(row), signal: controller.signal, heartbeat, holds, complete });
        if (completed) return (await this.get(row.id))!;
        if (!reason) {
          try {
            await heartbeat();
          } catch {
            // The last look for a cancel could not be written; the outcome below still only lands if the job is ours.
          }
        }
        await this.settle(row, reason, { status: 'succeeded', result: result ?? null });
      } catch (error) {
        const problem = storageProblem(error);
        if (completed) {
          // The outcome is committed with its effect; what the handler did after it is not the job's.
        } else if (error instanceof RescheduleJob && !reason) {
          await this.settleIfMine(row.id, { status: 'queued', runAt: error.runAt, attempts: row.attempts - 1, owner: null, leaseUntil: null });
        } else if (problem && !reason) {
          // A busy database or a full disk passes: run again later without counting an attempt, never fail the job for it.
          const lastError = `${problem === 'busy' ? 'database busy' : 'storage full'}: ${error instanceof Error ? error.message : String(error)}`;
          await this.settleIfMine(row.id, { status: 'queued', lastError, runAt: this.now() + storageRetryDelay(problem), attempts: row.attempts - 1, owner: null, leaseUntil: null });
        } else {
          const outcome = this.failure(row, registered, error);
          if ((await this.settle(row, reason, outcome)) && outcome.status === 'failed') await this.announceFailure(row.id);
        }
      } finally {
        clearInterval(renewals);
        this.running.delete(row.id);
      }
      return (await this.get(row.id))!;
    })().catch((error: unknown) => {
      // Settling itself failed (disk full, database busy): the lease lapses and the job is claimed again
      // later. Nothing here may reject: the poller does not await its jobs.
      clearInterval(renewals);
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
    return this.store.settle(id, this.owner, { ...changes, ...(terminal ? { finishedAt: now, leaseUntil: null } : {}) }, now);
  }

  /** A running job owned by a process on this host that no longer exists can be claimed at once. */
  private async expireDeadOwners(): Promise<void> {
    for (const row of await this.store.runningOwners()) {
      if (ownerGone(row.owner)) await this.store.expireLease(row.id, row.owner!);
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
