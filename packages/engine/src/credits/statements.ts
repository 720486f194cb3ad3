import type Database from 'better-sqlite3';
import type { creditLedger, creditReservations } from '../store/sqlite/tables/credits.js';

export type ReservationRow = typeof creditReservations.$inferSelect;
export type LedgerRow = typeof creditLedger.$inferSelect;
type Statement<Params extends unknown[], Row = unknown> = Database.Statement<Params, Row>;

/**
 * The statements every charge, reservation and page of a crawl runs, prepared once per engine:
 * building them through the query builder on each call cost more than running them.
 */
export class CreditStatements {
  readonly reservation: Statement<[string], ReservationRow>;
  readonly insertReservation: Statement<[Omit<ReservationRow, 'closedAt'>]>;
  readonly addUsed: Statement<[number, string]>;
  readonly growReservation: Statement<[number, string]>;
  readonly closeReservation: Statement<[string, string, string]>;
  readonly ledgerSum: Statement<[string], { total: number }>;
  readonly grantInPeriod: Statement<[string, string], { id: string }>;
  readonly lastMonthlyGrant: Statement<[string], { seq: number }>;
  readonly spentSince: Statement<[string, number], { spent: number }>;
  readonly lastSeq: Statement<[], { seq: number }>;
  readonly insertLedger: Statement<[LedgerRow]>;

  constructor(sqlite: Database.Database) {
    this.reservation = sqlite.prepare<[string], ReservationRow>(
      'SELECT id, user_id AS userId, operation, amount, used, status, created_at AS createdAt, closed_at AS closedAt FROM credit_reservations WHERE id = ?',
    );
    this.insertReservation = sqlite.prepare<[Omit<ReservationRow, 'closedAt'>]>(
      'INSERT INTO credit_reservations (id, user_id, operation, amount, used, status, created_at) VALUES (@id, @userId, @operation, @amount, @used, @status, @createdAt)',
    );
    this.addUsed = sqlite.prepare<[number, string]>('UPDATE credit_reservations SET used = used + ? WHERE id = ?');
    this.growReservation = sqlite.prepare<[number, string]>('UPDATE credit_reservations SET amount = amount + ? WHERE id = ?');
    this.closeReservation = sqlite.prepare<[string, string, string]>('UPDATE credit_reservations SET status = ?, closed_at = ? WHERE id = ?');
    this.ledgerSum = sqlite.prepare<[string], { total: number }>('SELECT coalesce(sum(amount), 0) AS total FROM credit_ledger WHERE user_id = ?');
    this.grantInPeriod = sqlite.prepare<[string, string], { id: string }>(
      "SELECT id FROM credit_ledger WHERE user_id = ? AND kind = 'grant' AND period = ? LIMIT 1",
    );
    this.lastMonthlyGrant = sqlite.prepare<[string], { seq: number }>(
      "SELECT seq FROM credit_ledger WHERE user_id = ? AND kind = 'grant' AND period IS NOT NULL ORDER BY seq DESC LIMIT 1",
    );
    this.spentSince = sqlite.prepare<[string, number], { spent: number }>(
      "SELECT coalesce(-sum(amount), 0) AS spent FROM credit_ledger WHERE user_id = ? AND seq > ? AND kind <> 'grant'",
    );
    // The ledger is append-only and seq grows with every insert, so the last row by rowid holds the
    // highest seq: one b-tree step, where max(seq) walked the whole (user_id, seq) index.
    this.lastSeq = sqlite.prepare<[], { seq: number }>('SELECT seq FROM credit_ledger ORDER BY rowid DESC LIMIT 1');
    this.insertLedger = sqlite.prepare<[LedgerRow]>(
      `INSERT INTO credit_ledger (id, seq, user_id, kind, amount, reservation_id, operation, note, period, created_at)
       VALUES (@id, @seq, @userId, @kind, @amount, @reservationId, @operation, @note, @period, @createdAt)`,
    );
  }
}
