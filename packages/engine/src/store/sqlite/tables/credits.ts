import { sqliteTable, text, integer, index } from 'drizzle-orm/sqlite-core';

/**
 * Append-only: rows are never updated or deleted, and the SUM of a user's amounts is the
 * balance. A reservation is a negative `reserve` row; its `commit` row gives back what was
 * reserved but not used, or a `release` row gives back all of it. `charge` debits at once.
 */
export const creditLedger = sqliteTable(
  'credit_ledger',
  {
    id: text('id').primaryKey(),
    seq: integer('seq').notNull(),
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

/** Mutable bookkeeping of open reservations; the money itself moves only in the ledger. */
export const creditReservations = sqliteTable(
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
