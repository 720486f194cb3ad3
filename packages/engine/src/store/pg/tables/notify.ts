import { pgTable, text, integer, index } from 'drizzle-orm/pg-core';
import { epochMs } from './types.js';

// Mirrors store/sqlite notify tables (parity.test.ts checks tables and columns match).
export const webhookSecrets = pgTable('webhook_secrets', {
  userId: text('user_id').primaryKey(),
  secret: text('secret').notNull(),
  createdAt: text('created_at').notNull(),
});

export const notifyDeliveries = pgTable(
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
    nextAttemptAt: epochMs('next_attempt_at'),
    lastError: text('last_error'),
    lastStatusCode: integer('last_status_code'),
    createdAt: text('created_at').notNull(),
    deliveredAt: text('delivered_at'),
  },
  (t) => [index('notify_deliveries_due').on(t.status, t.nextAttemptAt), index('notify_deliveries_user').on(t.userId, t.createdAt)],
);
