import pg from 'pg';
import type { JobClaimRequest, JobClaims, JobRecord, JobSettlement, JobsPort, LeaseRenewal } from '../ports/jobs.js';
import type { PgExecutor } from './executor.js';

/** LISTEN channels: a job became due (payload: kind), a running job was cancelled (payload: id). */
export const DUE_CHANNEL = 'wvr_jobs_due';
export const CANCEL_CHANNEL = 'wvr_jobs_cancel';

const COLUMNS = `id, kind, payload, status, attempts, max_attempts AS "maxAttempts", run_at AS "runAt", last_error AS "lastError",
  result, created_at AS "createdAt", finished_at AS "finishedAt", owner, lease_until AS "leaseUntil",
  cancel_requested AS "cancelRequested", updated_at AS "updatedAt"`;

const SETTLEMENT_COLUMNS: Record<keyof JobSettlement, string> = {
  status: 'status',
  result: 'result',
  lastError: 'last_error',
  runAt: 'run_at',
  attempts: 'attempts',
  owner: 'owner',
  leaseUntil: 'lease_until',
  finishedAt: 'finished_at',
};

/**
 * The jobs port on PostgreSQL. Each method is one atomic step for any number of workers:
 * claims take due rows with `FOR UPDATE SKIP LOCKED` (no two workers get one row, none waits on
 * another), lease renewals and settlements only land `WHERE owner = me AND status = 'running'`,
 * and `add` / `moveRunAt` NOTIFY at commit so idle workers wake at once (`listen`).
 * Inside `store.atomically` (PgExecutor) an added job commits with the caller's writes: an outbox.
 */
export class PgJobsPort implements JobsPort {
  constructor(private readonly ex: PgExecutor) {}

  async add(job: JobRecord): Promise<void> {
    await this.ex.query(
      `WITH inserted AS (
         INSERT INTO jobs (id, kind, payload, status, attempts, max_attempts, run_at, lease_until, owner, cancel_requested, last_error, result, created_at, updated_at, finished_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING kind
       )
       SELECT pg_notify('${DUE_CHANNEL}', kind) FROM inserted`,
      [job.id, job.kind, json(job.payload), job.status, job.attempts, job.maxAttempts, job.runAt, job.leaseUntil, job.owner, job.cancelRequested, job.lastError, json(job.result), job.createdAt, job.updatedAt, job.finishedAt],
    );
  }

  async get(id: string): Promise<JobRecord | undefined> {
    const { rows } = await this.ex.query<JobRecord>(`SELECT ${COLUMNS} FROM jobs WHERE id = $1`, [id]);
    return rows[0];
  }

  async moveRunAt(id: string, runAt: number, now: number): Promise<boolean> {
    const { rowCount } = await this.ex.query(
      `WITH moved AS (UPDATE jobs SET run_at = $2, updated_at = $3 WHERE id = $1 AND status = 'queued' RETURNING kind)
       SELECT pg_notify('${DUE_CHANNEL}', kind) FROM moved`,
      [id, runAt, now],
    );
    return (rowCount ?? 0) > 0;
  }

  async requestCancel(id: string, now: number): Promise<boolean> {
    const { rowCount } = await this.ex.query(
      `WITH target AS (SELECT id, status FROM jobs WHERE id = $1 AND status IN ('queued', 'running') FOR UPDATE),
       changed AS (
         UPDATE jobs SET
           status = CASE WHEN target.status = 'queued' THEN 'cancelled' ELSE jobs.status END,
           cancel_requested = target.status = 'running',
           finished_at = CASE WHEN target.status = 'queued' THEN $2 ELSE jobs.finished_at END,
           updated_at = $2
         FROM target WHERE jobs.id = target.id RETURNING jobs.id
       )
       SELECT pg_notify('${CANCEL_CHANNEL}', id) FROM changed`,
      [id, now],
    );
    return (rowCount ?? 0) > 0;
  }

  claimDue(request: JobClaimRequest): Promise<JobClaims> {
    const kinds = Object.keys(request.leases);
    if (kinds.length === 0 || request.limit <= 0) return Promise.resolve({ claimed: [], givenUp: [] });
    const { now, owner } = request;
    return this.ex.atomically(async () => {
      const { rows } = await this.ex.query<JobRecord>(
        `SELECT ${COLUMNS} FROM jobs
         WHERE kind = ANY($1::text[]) AND ($2::text IS NULL OR id = $2)
           AND ((status = 'queued' AND run_at <= $3) OR (status = 'running' AND lease_until <= $3))
         ORDER BY run_at, created_at
         LIMIT $4
         FOR UPDATE SKIP LOCKED`,
        [kinds, request.id ?? null, now, request.limit],
      );
      const claimed: JobRecord[] = [];
      const givenUp: string[] = [];
      for (const row of rows) {
        if (row.cancelRequested) {
          await this.end(row.id, 'cancelled', null, now);
        } else if (row.attempts >= row.maxAttempts) {
          await this.end(row.id, 'failed', row.lastError ?? 'its worker stopped answering too many times', now);
          givenUp.push(row.id);
        } else {
          claimed.push({ ...row, status: 'running', owner, leaseUntil: now + request.leases[row.kind]!, attempts: row.attempts + 1, updatedAt: now });
        }
      }
      if (claimed.length > 0) {
        await this.ex.query(
          `UPDATE jobs SET status = 'running', owner = $1, lease_until = u.lease, attempts = attempts + 1, updated_at = $2
           FROM unnest($3::text[], $4::bigint[]) AS u(id, lease) WHERE jobs.id = u.id`,
          [owner, now, claimed.map((c) => c.id), claimed.map((c) => c.leaseUntil)],
        );
      }
      return { claimed, givenUp };
    });
  }

  async renewLease(id: string, owner: string, until: number, now: number): Promise<LeaseRenewal> {
    const { rows } = await this.ex.query<{ cancel_requested: boolean }>(
      `UPDATE jobs SET lease_until = $3, updated_at = $4 WHERE id = $1 AND owner = $2 AND status = 'running' RETURNING cancel_requested`,
      [id, owner, until, now],
    );
    if (rows.length === 0) return 'lost';
    return rows[0]!.cancel_requested ? 'cancel' : 'renewed';
  }

  async settle(id: string, owner: string, changes: JobSettlement, now: number): Promise<boolean> {
    const keys = (Object.keys(changes) as (keyof JobSettlement)[]).filter((k) => changes[k] !== undefined);
    const values = keys.map((k) => (k === 'result' ? json(changes.result) : changes[k]));
    const { rowCount } = await this.ex.query(
      `UPDATE jobs SET ${keys.map((k, i) => `${SETTLEMENT_COLUMNS[k]} = $${i + 4}`).concat('updated_at = $3').join(', ')}
       WHERE id = $1 AND owner = $2 AND status = 'running'`,
      [id, owner, now, ...values],
    );
    return (rowCount ?? 0) > 0;
  }

  async lockHeld(id: string, owner: string): Promise<LeaseRenewal> {
    // FOR UPDATE: a settlement or claim by another worker waits for this transaction to end.
    const { rows } = await this.ex.query<{ owner: string | null; status: string; cancel_requested: boolean }>(
      'SELECT owner, status, cancel_requested FROM jobs WHERE id = $1 FOR UPDATE',
      [id],
    );
    const row = rows[0];
    if (row?.owner !== owner || row.status !== 'running') return 'lost';
    return row.cancel_requested ? 'cancel' : 'renewed';
  }

  async runningOwners(): Promise<{ id: string; owner: string | null }[]> {
    const { rows } = await this.ex.query<{ id: string; owner: string | null }>(`SELECT id, owner FROM jobs WHERE status = 'running'`);
    return rows;
  }

  async expireLease(id: string, owner: string): Promise<void> {
    await this.ex.query(`UPDATE jobs SET lease_until = 0 WHERE id = $1 AND owner = $2 AND status = 'running'`, [id, owner]);
  }

  /**
   * Listens for due jobs and cancellations on a dedicated connection (LISTEN holds its session),
   * re-opened after it drops; `onDue` also fires after each (re)connect, for what was missed meanwhile.
   * Returns the stop function.
   */
  listen(handlers: { onDue(kind: string): void; onCancel(id: string): void }, retryMs = 2_000): () => Promise<void> {
    let stopped = false;
    let client: pg.Client | undefined;
    let timer: NodeJS.Timeout | undefined;
    const open = async () => {
      if (stopped) return;
      const { connectionString, ...rest } = this.ex.pool.options;
      const current = new pg.Client({ ...rest, connectionString });
      client = current;
      const retry = () => {
        if (client !== current) return;
        client = undefined;
        void current.end().catch(() => undefined);
        if (stopped) return;
        timer = setTimeout(() => void open(), retryMs);
        timer.unref();
      };
      current.on('error', retry);
      current.on('end', retry);
      current.on('notification', (message) => {
        if (message.channel === CANCEL_CHANNEL && message.payload) handlers.onCancel(message.payload);
        else if (message.channel === DUE_CHANNEL) handlers.onDue(message.payload ?? '');
      });
      try {
        await current.connect();
        await current.query(`LISTEN ${DUE_CHANNEL}; LISTEN ${CANCEL_CHANNEL}`);
        handlers.onDue('');
      } catch {
        retry();
      }
    };
    void open();
    return async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    };
  }

  private async end(id: string, status: 'cancelled' | 'failed', lastError: string | null, now: number): Promise<void> {
    await this.ex.query(
      `UPDATE jobs SET status = $2, last_error = COALESCE($3, last_error), finished_at = $4, lease_until = NULL, updated_at = $4 WHERE id = $1`,
      [id, status, lastError, now],
    );
  }
}

/** jsonb parameters go as JSON text; undefined is stored as JSON null, as the SQLite driver does. */
function json(value: unknown): string {
  return JSON.stringify(value ?? null);
}
