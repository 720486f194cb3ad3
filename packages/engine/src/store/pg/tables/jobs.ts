import { pgTable, text, integer, boolean, index } from 'drizzle-orm/pg-core';
import { epochMs, json } from './types.js';

// Mirrors store/sqlite jobs table (parity.test.ts checks tables and columns match).
/**
 * The job queue. Times are ms on the engine clock, as in SQLite. A worker claims due rows with
 * `FOR UPDATE SKIP LOCKED` (see ../jobs.ts); `owner` + `lease_until` is its lease, renewed by the
 * owner only, so a stalled or killed worker's job is claimed again once the lease passes.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: text('id').primaryKey(),
    kind: text('kind').notNull(),
    payload: json<unknown>('payload').notNull(),
    status: text('status', { enum: ['queued', 'running', 'succeeded', 'failed', 'cancelled'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull(),
    runAt: epochMs('run_at').notNull(),
    leaseUntil: epochMs('lease_until'),
    owner: text('owner'),
    cancelRequested: boolean('cancel_requested').notNull().default(false),
    lastError: text('last_error'),
    result: json<unknown>('result'),
    createdAt: epochMs('created_at').notNull(),
    updatedAt: epochMs('updated_at').notNull(),
    finishedAt: epochMs('finished_at'),
  },
  (t) => [index('jobs_due').on(t.status, t.runAt), index('jobs_lease').on(t.status, t.leaseUntil)],
);
