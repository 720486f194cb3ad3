/**
 * The job queue contract every capability uses for long or deferred work. The default
 * implementation (store-queue.ts) keeps jobs behind the store's `jobs` port, so it runs over
 * whichever driver the store has (SQLite, PostgreSQL); another backend (Redis, a broker) can
 * replace it by implementing this interface, without touching capabilities. Every call is
 * asynchronous. Producer calls (enqueue, get, cancel, reschedule) made inside
 * `store.atomically` join that transaction: a job is enqueued together with the rows it works
 * on, or not at all (an outbox a distributed backend relays from).
 */
import type { Job } from './vocabulary.js';

export type { Job, JobStatus } from './vocabulary.js';

export interface JobContext<P = unknown> {
  job: Job<P>;
  /** Aborted when the job is cancelled, its lease is lost, or the queue stops. */
  signal: AbortSignal;
  /**
   * Extends the lease; long handlers call it between units of work. Returns false (and
   * aborts `signal`) when the job was cancelled or another worker took it over.
   */
  heartbeat(): Promise<boolean>;
  /**
   * Whether this worker still holds the job, read under the job's row lock. Called inside a store
   * transaction, the lock lasts to its end, so that transaction's writes land only while the job is
   * held: another worker's claim waits for it, and a job already taken over (or cancelled) answers
   * false and aborts `signal`.
   */
  holds(): Promise<boolean>;
  /**
   * Runs `effect` and the job's success in one store transaction, after checking under the job's
   * row lock that this worker still holds it: an effect written through the store inside `effect`
   * lands exactly once, even when this worker stalled past its lease and another took the job
   * over. Throws (and aborts `signal`) when the job was lost or cancelled; what the handler returns
   * afterwards is not recorded, `effect`'s value is the job's result.
   */
  complete<R>(effect: () => Promise<R>): Promise<R>;
}

/** Throw from a handler to run again at `runAt` without counting a failure. */
export class RescheduleJob extends Error {
  constructor(readonly runAt: number) {
    super(`rescheduled to ${new Date(runAt).toISOString()}`);
  }
}

export type JobHandler<P = unknown> = (ctx: JobContext<P>) => Promise<unknown>;

export interface HandlerOptions {
  /** Claims before the job is marked failed (default 5). */
  maxAttempts?: number;
  /** Lease length in ms (default 60s); heartbeat well inside it. */
  leaseMs?: number;
  /** Delay before the next attempt after `attempts` failures (default 1s doubling, capped at 5 min). */
  backoff?: (attempts: number) => number;
  /**
   * Called once when the queue gives a job up for good ('failed': its last attempt threw, or its
   * worker died past the attempt limit and it was failed at claim time), after that is recorded,
   * so the owner can settle its own state at once instead of on its next read. Errors are ignored.
   */
  onFailed?: (job: Job) => unknown;
}

export interface EnqueueOptions {
  /** Engine clock time to run at; default now. */
  runAt?: Date | number;
  maxAttempts?: number;
  /** Caller-chosen id, e.g. the id of the resource the job works on. */
  id?: string;
}

export interface RunOptions {
  /** At most this many jobs claimed (default 10). */
  limit?: number;
  /** Only these kinds. */
  kinds?: string[];
}

export interface JobQueue {
  register<P>(kind: string, handler: JobHandler<P>, options?: HandlerOptions): void;
  enqueue<P>(kind: string, payload: P, options?: EnqueueOptions): Promise<Job<P>>;
  get(id: string): Promise<Job | undefined>;
  /** Moves a queued job's run-at time (e.g. a scheduled crawl executed now); false when it is not queued. */
  reschedule(id: string, runAt: Date | number): Promise<boolean>;
  /** Queued: cancelled at once. Running: the handler's signal aborts; the job ends cancelled. */
  cancel(id: string): Promise<boolean>;
  /** Claims the jobs due by the engine clock and runs them concurrently; resolves when they end. */
  runDue(options?: RunOptions): Promise<Job[]>;
  /** runDue until nothing is due (tests, sync callers). */
  drain(options?: RunOptions): Promise<void>;
  /** Claims and runs one job now if it is claimable (sync processing modes). */
  runNow(id: string): Promise<Job | undefined>;
  /** Polls in the background on a real timer; run-at decisions still use the engine clock. */
  start(options?: { pollMs?: number; concurrency?: number }): void;
  /** Stops polling, aborts running handlers and waits for them; their leases lapse for others. */
  stop(): Promise<void>;
}
