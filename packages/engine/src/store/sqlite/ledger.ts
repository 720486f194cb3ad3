import type Database from 'better-sqlite3';
import type { LedgerRecord, ReservationRecord, ReservationStatus, UseOutcome } from '../ports/ledger.js';

type Statement<Params extends unknown[], Row = unknown> = Database.Statement<Params, Row>;

/**
 * The credit ledger on SQLite. Its statements are prepared once per engine: a crawl calls
 * `useReserved` for every page, and building them through the query builder on each call cost more
 * than running them. The whole file has one writer (`store.atomically` is BEGIN IMMEDIATE), so a
 * balance read inside a transaction cannot change before the debit decided on it commits.
 */
export class SqliteLedger {
  private readonly reservationById: Statement<[string], ReservationRecord>;
  private readonly insertReservationRow: Statement<[Omit<ReservationRecord, 'closedAt'>]>;
  private readonly addUsed: Statement<[{ id: string; amount: number }]>;
  private readonly grow: Statement<[number, string]>;
  private readonly close: Statement<[string, string, string], ReservationRecord>;
  private readonly sum: Statement<[string], { total: number }>;
  private readonly heldSum: Statement<[string], { held: number }>;
  private readonly recent: Statement<[string, number], LedgerRecord>;
  private readonly grantInPeriod: Statement<[string, string], { id: string }>;
  private readonly lastMonthlyGrant: Statement<[string], { seq: number }>;
  private readonly spent: Statement<[string, number], { spent: number }>;
  private readonly insertEntry: Statement<[Omit<LedgerRecord, 'seq'>], { seq: number }>;

  constructor(sqlite: Database.Database) {
    const reservationColumns = 'id, user_id AS userId, operation, amount, used, status, created_at AS createdAt, closed_at AS closedAt';
    this.reservationById = sqlite.prepare<[string], ReservationRecord>(`SELECT ${reservationColumns} FROM credit_reservations WHERE id = ?`);
    this.insertReservationRow = sqlite.prepare<[Omit<ReservationRecord, 'closedAt'>]>(
      'INSERT INTO credit_reservations (id, user_id, operation, amount, used, status, created_at) VALUES (@id, @userId, @operation, @amount, @used, @status, @createdAt)',
    );
    // Checked and written in one statement: atomic without a transaction, for every process on the file.
    this.addUsed = sqlite.prepare<[{ id: string; amount: number }]>(
      "UPDATE credit_reservations SET used = used + @amount WHERE id = @id AND status = 'open' AND used + @amount <= amount",
    );
    this.grow = sqlite.prepare<[number, string]>("UPDATE credit_reservations SET amount = amount + ? WHERE id = ? AND status = 'open'");
    this.close = sqlite.prepare<[string, string, string], ReservationRecord>(
      `UPDATE credit_reservations SET status = ?, closed_at = ? WHERE id = ? AND status = 'open' RETURNING ${reservationColumns}`,
    );
    this.sum = sqlite.prepare<[string], { total: number }>('SELECT coalesce(sum(amount), 0) AS total FROM credit_ledger WHERE user_id = ?');
    this.heldSum = sqlite.prepare<[string], { held: number }>(
      "SELECT coalesce(sum(amount - used), 0) AS held FROM credit_reservations WHERE user_id = ? AND status = 'open'",
    );
    this.recent = sqlite.prepare<[string, number], LedgerRecord>(
      `SELECT id, seq, user_id AS userId, kind, amount, reservation_id AS reservationId, operation, note, period, created_at AS createdAt
       FROM credit_ledger WHERE user_id = ? ORDER BY seq DESC LIMIT ?`,
    );
    this.grantInPeriod = sqlite.prepare<[string, string], { id: string }>(
      "SELECT id FROM credit_ledger WHERE user_id = ? AND kind = 'grant' AND period = ? LIMIT 1",
    );
    this.lastMonthlyGrant = sqlite.prepare<[string], { seq: number }>(
      "SELECT seq FROM credit_ledger WHERE user_id = ? AND kind = 'grant' AND period IS NOT NULL ORDER BY seq DESC LIMIT 1",
    );
    this.spent = sqlite.prepare<[string, number], { spent: number }>(
      "SELECT coalesce(-sum(amount), 0) AS spent FROM credit_ledger WHERE user_id = ? AND seq > ? AND kind <> 'grant'",
    );
    // Numbered and inserted in one statement, so atomic without a transaction around it (another process
    // on the file cannot take the same seq in between). The ledger is append-only and seq grows with
    // every insert, so the last row by rowid holds the highest seq: one b-tree step, where max(seq)
    // walked the whole (user_id, seq) index.
    this.insertEntry = sqlite.prepare<[Omit<LedgerRecord, 'seq'>], { seq: number }>(
      `INSERT INTO credit_ledger (id, seq, user_id, kind, amount, reservation_id, operation, note, period, created_at)
       VALUES (@id, coalesce((SELECT seq FROM credit_ledger ORDER BY rowid DESC LIMIT 1), 0) + 1, @userId, @kind, @amount, @reservationId, @operation, @note, @period, @createdAt)
       RETURNING seq`,
    );
  }

  appendEntry(entry: Omit<LedgerRecord, 'seq'>): LedgerRecord {
    return { ...entry, seq: this.insertEntry.get(entry)!.seq };
  }

  balance(userId: string): number {
    return this.sum.get(userId)!.total;
  }

  recentEntries(userId: string, limit: number): LedgerRecord[] {
    return this.recent.all(userId, limit);
  }

  hasPeriodGrant(userId: string, period: string): boolean {
    return this.grantInPeriod.get(userId, period) !== undefined;
  }

  lastPeriodGrantSeq(userId: string): number | undefined {
    return this.lastMonthlyGrant.get(userId)?.seq;
  }

  spentSince(userId: string, seq: number): number {
    return this.spent.get(userId, seq)!.spent;
  }

  insertReservation(row: Omit<ReservationRecord, 'closedAt'>): void {
    this.insertReservationRow.run(row);
  }

  reservation(id: string): ReservationRecord | undefined {
    return this.reservationById.get(id);
  }

  held(userId: string): number {
    return this.heldSum.get(userId)!.held;
  }

  useReserved(id: string, amount: number): UseOutcome {
    if (this.addUsed.run({ id, amount }).changes > 0) return 'used';
    // Nothing changed: say why (off the crawl's hot path).
    const r = this.reservationById.get(id);
    return !r ? 'missing' : r.status !== 'open' ? 'closed' : 'over_budget';
  }

  growReservation(id: string, amount: number): boolean {
    return this.grow.run(amount, id).changes > 0;
  }

  closeReservation(id: string, status: Exclude<ReservationStatus, 'open'>, at: string): ReservationRecord | undefined {
    return this.close.get(status, at, id);
  }
}
