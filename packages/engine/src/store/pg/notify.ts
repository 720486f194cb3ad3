import type { DeliveryStatus } from '../../notify/schemas.js';
import type { DeliveryAttempt, DeliveryRecord, NotifyPort } from '../ports/notify.js';
import type { PgExecutor } from './executor.js';

/** A delivery's columns as the port names them, optionally of table alias `t`. */
const deliveryColumns = (t = '') =>
  `${t}id, ${t}event_id AS "eventId", ${t}user_id AS "userId", ${t}kind, ${t}payload, ${t}channel, ${t}target, ${t}status, ${t}attempts,
   ${t}next_attempt_at AS "nextAttemptAt", ${t}last_error AS "lastError", ${t}last_status_code AS "lastStatusCode",
   ${t}created_at AS "createdAt", ${t}delivered_at AS "deliveredAt"`;

/**
 * The outbox on PostgreSQL. Many servers send from one outbox: a claim takes due rows with
 * `FOR UPDATE SKIP LOCKED` and moves their next attempt past the lease in the same statement, so
 * no two servers send the same attempt and none waits on another's claim.
 */
export class PgNotify implements NotifyPort {
  constructor(private readonly ex: PgExecutor) {}

  async addDeliveries(rows: readonly DeliveryRecord[]): Promise<void> {
    if (rows.length === 0) return;
    const columns = 14;
    const values = rows.map((_, r) => `(${Array.from({ length: columns }, (_, c) => `$${r * columns + c + 1}`).join(', ')})`).join(', ');
    await this.ex.query(
      `INSERT INTO notify_deliveries (id, event_id, user_id, kind, payload, channel, target, status, attempts, next_attempt_at,
         last_error, last_status_code, created_at, delivered_at) VALUES ${values}`,
      rows.flatMap((d) => [d.id, d.eventId, d.userId, d.kind, d.payload, d.channel, d.target, d.status, d.attempts, d.nextAttemptAt, d.lastError, d.lastStatusCode, d.createdAt, d.deliveredAt]),
    );
  }

  async claimDue(now: number, limit: number, leaseUntil: number): Promise<DeliveryRecord[]> {
    const { rows } = await this.ex.query<DeliveryRecord & { dueAt: number }>(
      `WITH due AS (
         SELECT id, next_attempt_at AS due_at FROM notify_deliveries
          WHERE status = 'pending' AND next_attempt_at <= $1
          ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       UPDATE notify_deliveries d SET next_attempt_at = $3 FROM due WHERE d.id = due.id
       RETURNING ${deliveryColumns('d.')}, due.due_at AS "dueAt"`,
      [now, limit, leaseUntil],
    );
    // RETURNING has no order of its own: earliest due first, as claimed.
    return rows.sort((a, b) => a.dueAt - b.dueAt).map(({ dueAt: _, ...row }) => row);
  }

  async recordAttempt(id: string, a: DeliveryAttempt): Promise<void> {
    await this.ex.query(
      `UPDATE notify_deliveries SET status = $2, attempts = attempts + 1, next_attempt_at = $3, last_error = $4, last_status_code = $5, delivered_at = $6 WHERE id = $1`,
      [id, a.status, a.nextAttemptAt, a.lastError, a.lastStatusCode, a.deliveredAt],
    );
  }

  async listDeliveries(userId: string, filter: { status?: DeliveryStatus | undefined; limit: number; offset: number }): Promise<{ rows: DeliveryRecord[]; total: number }> {
    const where = `user_id = $1 AND ($2::text IS NULL OR status = $2)`;
    const params = [userId, filter.status ?? null];
    const total = await this.ex.query<{ n: number }>(`SELECT count(*)::int AS n FROM notify_deliveries WHERE ${where}`, params);
    const { rows } = await this.ex.query<DeliveryRecord>(
      `SELECT ${deliveryColumns()} FROM notify_deliveries WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4`,
      [...params, filter.limit, filter.offset],
    );
    return { rows, total: total.rows[0]!.n };
  }

  async deliveriesOf(eventId: string): Promise<DeliveryRecord[]> {
    const { rows } = await this.ex.query<DeliveryRecord>(`SELECT ${deliveryColumns()} FROM notify_deliveries WHERE event_id = $1`, [eventId]);
    return rows;
  }

  async secret(userId: string): Promise<{ secret: string; createdAt: string } | undefined> {
    const { rows } = await this.ex.query<{ secret: string; createdAt: string }>(`SELECT secret, created_at AS "createdAt" FROM webhook_secrets WHERE user_id = $1`, [userId]);
    return rows[0];
  }

  async putSecret(userId: string, secret: string, createdAt: string): Promise<void> {
    await this.ex.query(
      `INSERT INTO webhook_secrets (user_id, secret, created_at) VALUES ($1, $2, $3)
       ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret, created_at = excluded.created_at`,
      [userId, secret, createdAt],
    );
  }

  async secretOrInit(userId: string, initial: string, createdAt: string): Promise<string> {
    await this.ex.query(`INSERT INTO webhook_secrets (user_id, secret, created_at) VALUES ($1, $2, $3) ON CONFLICT (user_id) DO NOTHING`, [userId, initial, createdAt]);
    return (await this.secret(userId))!.secret;
  }
}
