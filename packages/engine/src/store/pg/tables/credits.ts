import { pgTable, text, integer, bigint, index } from 'drizzle-orm/pg-core';

// Mirrors store/sqlite credits tables (parity.test.ts checks tables and columns match).
/**
 * Append-only; the SUM of a user's amounts is the balance. `seq` comes from a sequence (identity),
 * never `max + 1`: two servers appending at once each get their own number without a conflict.
 * Debits serialise on the account (a row lock, see ledger.ts), not on the sequence.
 */
export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: text('id').primaryKey(),
    seq: bigint('seq', { mode: 'number' }).notNull().generatedByDefaultAsIdentity(),
    userId: text('user_id').notNull(),
    kind: text('kind', { enum: ['grant', 'reserve', 'commit', 'release', 'charge', 'refund'] }).notNull(),
    amount: integer('amount').notNull(),
    reservationId: text('reservation_id'),
    operation: text('operation'),
    note: text('note'),
    period: text('period'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('credit_ledger_user').on(t.userId, t.seq), index('credit_ledger_reservation').on(t.reservationId)],
);

export const creditReservations = pgTable(
  'credit_reservations',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    operation: text('operation').notNull(),
    amount: integer('amount').notNull(),
    used: integer('used').notNull().default(0),
    status: text('status', { enum: ['open', 'committed', 'released'] }).notNull().default('open'),
    createdAt: text('created_at').notNull(),
    closedAt: text('closed_at'),
  },
  (t) => [index('credit_reservations_user').on(t.userId, t.status)],
);
