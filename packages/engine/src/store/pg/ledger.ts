import type { LedgerPort, LedgerRecord, ReservationRecord, UseOutcome } from '../ports/ledger.js';
import type { PgExecutor } from './executor.js';

const LEDGER_COLUMNS = `id, seq, user_id AS "userId", kind, amount, reservation_id AS "reservationId", operation, note, period, created_at AS "createdAt"`;
const RESERVATION_COLUMNS = `id, user_id AS "userId", operation, amount, used, status, created_at AS "createdAt", closed_at AS "closedAt"`;

/**
 * The credit ledger on PostgreSQL. The credits service decides from reads (balance, grants, holds)
 * and writes inside `store.atomically`; on SQLite that is safe because the whole file has one
 * writer. Here every read of a user's money inside a transaction first locks that account
 * (PgExecutor.lockAccount), so two servers reserving for one user take turns from the read on, and
 * no decision is made on a balance another transaction is about to change. `seq` comes from the
 * table's identity sequence; since a user's rows are written under that user's lock, a user's
 * sequence numbers also follow commit order (what spentSince relies on).
 */
export class PgLedger implements LedgerPort {
  constructor(private readonly ex: PgExecutor) {}

  async appendEntry(entry: Omit<LedgerRecord, 'seq'>): Promise<LedgerRecord> {
    await this.ex.lockAccount(entry.userId);
    const { rows } = await this.ex.query<LedgerRecord>(
      `INSERT INTO credit_ledger (id, user_id, kind, amount, reservation_id, operation, note, period, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${LEDGER_COLUMNS}`,
      [entry.id, entry.userId, entry.kind, entry.amount, entry.reservationId, entry.operation, entry.note, entry.period, entry.createdAt],
    );
    return rows[0]!;
  }

  async balance(userId: string): Promise<number> {
    await this.ex.lockAccount(userId);
    const { rows } = await this.ex.query<{ total: string }>('SELECT COALESCE(SUM(amount), 0) AS total FROM credit_ledger WHERE user_id = $1', [userId]);
    return Number(rows[0]!.total);
  }

  async recentEntries(userId: string, limit: number): Promise<LedgerRecord[]> {
    const { rows } = await this.ex.query<LedgerRecord>(`SELECT ${LEDGER_COLUMNS} FROM credit_ledger WHERE user_id = $1 ORDER BY seq DESC LIMIT $2`, [userId, limit]);
    return rows;
  }

  async hasPeriodGrant(userId: string, period: string): Promise<boolean> {
    await this.ex.lockAccount(userId);
    const { rowCount } = await this.ex.query(`SELECT 1 FROM credit_ledger WHERE user_id = $1 AND kind = 'grant' AND period = $2 LIMIT 1`, [userId, period]);
    return (rowCount ?? 0) > 0;
  }

  async lastPeriodGrantSeq(userId: string): Promise<number | undefined> {
    await this.ex.lockAccount(userId);
    const { rows } = await this.ex.query<{ seq: number }>(
      `SELECT seq FROM credit_ledger WHERE user_id = $1 AND kind = 'grant' AND period IS NOT NULL ORDER BY seq DESC LIMIT 1`,
      [userId],
    );
    return rows[0]?.seq;
  }

  async spentSince(userId: string, seq: number): Promise<number> {
    await this.ex.lockAccount(userId);
    const { rows } = await this.ex.query<{ spent: string }>(
      `SELECT COALESCE(-SUM(amount), 0) AS spent FROM credit_ledger WHERE user_id = $1 AND seq > $2 AND kind <> 'grant'`,
      [userId, seq],
    );
    return Number(rows[0]!.spent);
  }

  async insertReservation(row: Omit<ReservationRecord, 'closedAt'>): Promise<void> {
    await this.ex.query(`INSERT INTO credit_reservations (id, user_id, operation, amount, used, status, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
      row.id,
      row.userId,
      row.operation,
      row.amount,
      row.used,
      row.status,
      row.createdAt,
    ]);
  }

  async reservation(id: string): Promise<ReservationRecord | undefined> {
    const { rows } = await this.ex.query<ReservationRecord>(`SELECT ${RESERVATION_COLUMNS} FROM credit_reservations WHERE id = $1`, [id]);
    return rows[0];
  }

  async held(userId: string): Promise<number> {
    await this.ex.lockAccount(userId);
    const { rows } = await this.ex.query<{ held: string }>(
      `SELECT COALESCE(SUM(amount - used), 0) AS held FROM credit_reservations WHERE user_id = $1 AND status = 'open'`,
      [userId],
    );
    return Number(rows[0]!.held);
  }

  /** One conditional UPDATE: concurrent users of a reservation re-check `used` on the row they wait for. */
  async useReserved(id: string, amount: number): Promise<UseOutcome> {
    const { rows } = await this.ex.query<{ outcome: UseOutcome }>(
      `WITH target AS (SELECT id, status, amount, used FROM credit_reservations WHERE id = $1 FOR UPDATE),
       updated AS (
         UPDATE credit_reservations r SET used = r.used + $2 FROM target
         WHERE r.id = target.id AND target.status = 'open' AND target.used + $2 <= target.amount RETURNING r.id
       )
       SELECT CASE
         WHEN NOT EXISTS (SELECT 1 FROM target) THEN 'missing'
         WHEN EXISTS (SELECT 1 FROM updated) THEN 'used'
         WHEN (SELECT status FROM target) <> 'open' THEN 'closed'
         ELSE 'over_budget' END AS outcome`,
      [id, amount],
    );
    return rows[0]!.outcome;
  }

  async growReservation(id: string, amount: number): Promise<boolean> {
    const { rowCount } = await this.ex.query(`UPDATE credit_reservations SET amount = amount + $2 WHERE id = $1 AND status = 'open'`, [id, amount]);
    return (rowCount ?? 0) > 0;
  }

  async closeReservation(id: string, status: 'committed' | 'released', at: string): Promise<ReservationRecord | undefined> {
    const { rows } = await this.ex.query<ReservationRecord>(
      `UPDATE credit_reservations SET status = $2, closed_at = $3 WHERE id = $1 AND status = 'open' RETURNING ${RESERVATION_COLUMNS}`,
      [id, status, at],
    );
    return rows[0];
  }
}
