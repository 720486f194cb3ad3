import { sqliteTable, text, integer, index } from 'drizzle-orm/sqlite-core';

/** One signing secret per user; replaced on rotation. */
export const webhookSecrets = sqliteTable('webhook_secrets', {
  userId: text('user_id').primaryKey(),
  secret: text('secret').notNull(),
  createdAt: text('created_at').notNull(),
});

/**
 * The outbox: one row per (event, target). `next_attempt_at` (ms since the epoch, engine clock)
 * doubles as a lease: a claimed row is pushed into the future before it is sent, so two
 * engines on one database never send the same attempt twice and a crash mid-send retries later.
 */
export const notifyDeliveries = sqliteTable(
  'notify_deliveries',
  {
    id: text('id').primaryKey(),
    eventId: text('event_id').notNull(),
    userId: text('user_id').notNull(),
    kind: text('kind').notNull(),
    payload: text('payload').notNull(),
    channel: text('channel', { enum: ['webhook', 'email'] }).notNull(),
    target: text('target').notNull(),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at'),
    lastError: text('last_error'),
    lastStatusCode: integer('last_status_code'),
    createdAt: text('created_at').notNull(),
    deliveredAt: text('delivered_at'),
  },
  (t) => [index('notify_deliveries_due').on(t.status, t.nextAttemptAt), index('notify_deliveries_user').on(t.userId, t.createdAt)],
);
