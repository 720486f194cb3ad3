import type Database from 'better-sqlite3';
import { and, eq, inArray, lte, or, sql } from 'drizzle-orm';
import type { Db } from './open.js';
import type { JobClaimRequest, JobClaims, JobRecord, JobSettlement, LeaseRenewal } from '../ports/jobs.js';
import { jobs } from './tables/jobs.js';

/**
 * The job queue's table. Claims run in IMMEDIATE transactions (SQLite locks the file for the
 * writer), so two engines on one file never claim the same job.
 */
export class SqliteJobs {
  /**
   * The two statements a running job repeats (its lease renewal, and the lock check in each of a crawl's
   * transactions), built once: building a drizzle query costs more than running it.
   */
  private readonly q;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly db: Db,
  ) {
    const id = sql.placeholder('id');
    const owner = sql.placeholder('owner');
    this.q = {
      renew: db
        .update(jobs)
        .set({ leaseUntil: sql`${sql.placeholder('until')}`, updatedAt: sql`${sql.placeholder('now')}` })
        .where(and(eq(jobs.id, id), eq(jobs.owner, owner), eq(jobs.status, 'running'), eq(jobs.cancelRequested, false)))
        .prepare(),
      holder: db.select({ owner: jobs.owner, status: jobs.status, cancelRequested: jobs.cancelRequested }).from(jobs).where(eq(jobs.id, id)).prepare(),
    };
  }

  add(job: JobRecord): void {
    this.db.insert(jobs).values(job).run();
  }

  get(id: string): JobRecord | undefined {
    return this.db.select().from(jobs).where(eq(jobs.id, id)).get();
  }

  moveRunAt(id: string, runAt: number, now: number): boolean {
    return this.db.update(jobs).set({ runAt, updatedAt: now }).where(and(eq(jobs.id, id), eq(jobs.status, 'queued'))).run().changes > 0;
  }

  requestCancel(id: string, now: number): boolean {
    return this.sqlite
      .transaction(() => {
        const row = this.db.select({ status: jobs.status }).from(jobs).where(eq(jobs.id, id)).get();
        if (row?.status === 'queued') {
          this.db.update(jobs).set({ status: 'cancelled', updatedAt: now, finishedAt: now }).where(eq(jobs.id, id)).run();
          return true;
        }
        if (row?.status === 'running') {
          this.db.update(jobs).set({ cancelRequested: true, updatedAt: now }).where(eq(jobs.id, id)).run();
          return true;
        }
        return false;
      })
      .immediate();
  }

  claimDue({ owner, leases, limit, now, id }: JobClaimRequest): JobClaims {
    const kinds = Object.keys(leases);
    if (kinds.length === 0 || limit <= 0) return { claimed: [], givenUp: [] };
    return this.sqlite
      .transaction(() => {
        const candidates = this.db
          .select()
          .from(jobs)
          .where(
            and(
              inArray(jobs.kind, kinds),
              id === undefined ? undefined : eq(jobs.id, id),
              or(and(eq(jobs.status, 'queued'), lte(jobs.runAt, now)), and(eq(jobs.status, 'running'), lte(jobs.leaseUntil, now))),
            ),
          )
          .orderBy(jobs.runAt, jobs.createdAt)
          .limit(limit)
          .all();
        const claims: JobClaims = { claimed: [], givenUp: [] };
        for (const row of candidates) {
          if (row.cancelRequested) {
            this.finish(row.id, { status: 'cancelled' }, now);
            continue;
          }
          if (row.attempts >= row.maxAttempts) {
            this.finish(row.id, { status: 'failed', lastError: row.lastError ?? 'its worker stopped answering too many times' }, now);
            claims.givenUp.push(row.id);
            continue;
          }
          const leaseUntil = now + leases[row.kind]!;
          this.db
            .update(jobs)
            .set({ status: 'running', owner, leaseUntil, attempts: sql`${jobs.attempts} + 1`, updatedAt: now })
            .where(eq(jobs.id, row.id))
            .run();
          claims.claimed.push({ ...row, status: 'running', owner, leaseUntil, attempts: row.attempts + 1, updatedAt: now });
        }
        return claims;
      })
      .immediate();
  }

  renewLease(id: string, owner: string, until: number, now: number): LeaseRenewal {
    // One conditional write in the common case; only a refused renewal reads why.
    if (this.q.renew.run({ id, owner, until, now }).changes > 0) return 'renewed';
    const current = this.q.holder.get({ id });
    return current?.owner === owner && current.status === 'running' ? 'cancel' : 'lost';
  }

  settle(id: string, owner: string, changes: JobSettlement, now: number): boolean {
    return this.db
      .update(jobs)
      .set({ ...changes, updatedAt: now })
      .where(and(eq(jobs.id, id), eq(jobs.owner, owner), eq(jobs.status, 'running')))
      .run().changes > 0;
  }

  runningOwners(): { id: string; owner: string | null }[] {
    return this.db.select({ id: jobs.id, owner: jobs.owner }).from(jobs).where(eq(jobs.status, 'running')).all();
  }

  expireLease(id: string, owner: string): void {
    this.db.update(jobs).set({ leaseUntil: 0 }).where(and(eq(jobs.id, id), eq(jobs.owner, owner))).run();
  }

  lockHeld(id: string, owner: string): LeaseRenewal {
    // Inside atomically's IMMEDIATE transaction the file is already locked against other writers.
    const row = this.q.holder.get({ id });
    if (row?.owner !== owner || row.status !== 'running') return 'lost';
    return row.cancelRequested ? 'cancel' : 'renewed';
  }

  private finish(id: string, changes: JobSettlement, now: number): void {
    this.db.update(jobs).set({ ...changes, finishedAt: now, leaseUntil: null, updatedAt: now }).where(eq(jobs.id, id)).run();
  }
}
