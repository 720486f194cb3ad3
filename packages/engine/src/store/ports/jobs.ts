import type { Job } from '../../jobs/vocabulary.js';

/** A job as stored: what callers see plus who holds it and until when. Times are engine-clock ms. */
export interface JobRecord extends Job {
  /** The worker holding a running job (`host:pid:uuid`); null when none does. */
  owner: string | null;
  /** A running job's lease end; once passed, any worker may claim the job again. */
  leaseUntil: number | null;
  /** Set on a running job that was cancelled; its worker aborts at its next heartbeat. */
  cancelRequested: boolean;
  updatedAt: number;
}

/** What a worker writes when a job it holds ends or goes back to the queue. */
export type JobSettlement = Partial<Pick<JobRecord, 'status' | 'result' | 'lastError' | 'runAt' | 'attempts' | 'owner' | 'leaseUntil' | 'finishedAt'>>;

export interface JobClaimRequest {
  owner: string;
  /** The kinds this worker runs, each with its lease length in ms. */
  leases: Readonly<Record<string, number>>;
  limit: number;
  now: number;
  /** Only this job (running one job now). */
  id?: string | undefined;
}

export interface JobClaims {
  /** Now running under the claimant's lease, `attempts` counting this claim; oldest run-at first. */
  claimed: JobRecord[];
  /** Ids of jobs found out of attempts (their worker kept dying) and failed instead of claimed. */
  givenUp: string[];
}

export type LeaseRenewal = 'renewed' | 'cancel' | 'lost';

/**
 * The persisted job queue. Every method is one atomic step, so two workers (in one process or
 * on two machines) never hold the same job: a claim and a settlement each take effect only for
 * the worker that holds the job.
 */
export interface JobsPort {
  add(job: JobRecord): Promise<void>;
  get(id: string): Promise<JobRecord | undefined>;
  /** Moves a queued job's run-at; false when the job is not queued. */
  moveRunAt(id: string, runAt: number, now: number): Promise<boolean>;
  /** A queued job ends cancelled at once, a running one is marked for its worker; false when neither. */
  requestCancel(id: string, now: number): Promise<boolean>;
  /**
   * Claims up to `limit` jobs of the given kinds that are due (queued with run-at passed, or running
   * with the lease passed), oldest run-at first. On the way a job marked cancelled ends cancelled and a
   * job already at its attempt limit ends failed (`givenUp`), neither claimed.
   */
  claimDue(request: JobClaimRequest): Promise<JobClaims>;
  /** Extends the holder's lease to `until`; 'cancel' when the job was cancelled, 'lost' when another holds it or it ended. */
  renewLease(id: string, owner: string, until: number, now: number): Promise<LeaseRenewal>;
  /** Writes `changes` only while the job is running under `owner` (compare-and-set); true when written. */
  settle(id: string, owner: string, changes: JobSettlement, now: number): Promise<boolean>;
  /** Running jobs and who holds them (a starting worker looks for holders that died). */
  runningOwners(): Promise<{ id: string; owner: string | null }[]>;
  /** Ends `owner`'s lease on a running job now, so the job can be claimed at once. */
  expireLease(id: string, owner: string): Promise<void>;
  /**
   * Inside `store.atomically`: locks the job's row until the transaction ends and says whether
   * `owner` still holds it ('renewed'), or it was cancelled ('cancel') or taken over or ended
   * ('lost'). A job's effect written after 'renewed', in the same transaction as its success,
   * lands exactly once.
   */
  lockHeld(id: string, owner: string): Promise<LeaseRenewal>;
  /**
   * Wakes this process's workers when another process enqueues a job (`onDue`, with its kind; ''
   * after a reconnect, for what may have been missed) or cancels one (`onCancel`). Optional: a
   * driver without it is polled. Returns the function that stops listening.
   */
  listen?(handlers: { onDue(kind: string): void; onCancel(id: string): void }): () => Promise<void>;
}
