import { sqliteTable, text, integer, index } from 'drizzle-orm/sqlite-core';

/**
 * The persisted job queue. `run_at` and `lease_until` are ms since the epoch on the engine
 * clock. A claimed job holds a lease; when the lease runs out (its engine died or stalled)
 * any engine on the file may claim it again, so work is never lost and never run twice at once.
 */
export const jobs = sqliteTable(
  'jobs',
  {
    id: text('id').primaryKey(),
    kind: text('kind').notNull(),
    payload: text('payload', { mode: 'json' }).$type<unknown>().notNull(),
    status: text('status', { enum: ['queued', 'running', 'succeeded', 'failed', 'cancelled'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull(),
    runAt: integer('run_at').notNull(),
    leaseUntil: integer('lease_until'),
    owner: text('owner'),
    cancelRequested: integer('cancel_requested', { mode: 'boolean' }).notNull().default(false),
    lastError: text('last_error'),
    result: text('result', { mode: 'json' }).$type<unknown>(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    finishedAt: integer('finished_at'),
  },
  (t) => [index('jobs_due').on(t.status, t.runAt), index('jobs_lease').on(t.status, t.leaseUntil)],
);
