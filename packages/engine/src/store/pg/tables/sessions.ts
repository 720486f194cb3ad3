import { pgTable, text, integer, index, primaryKey, uniqueIndex } from 'drizzle-orm/pg-core';
import type { SessionConfigValue, SessionContextState, SessionMetadataValue } from '../../../sessions/schemas.js';
import { json } from './types.js';

// Mirrors store/sqlite sessions tables (parity.test.ts checks tables and columns match).
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    intentContext: text('intent_context'),
    status: text('status', { enum: ['active', 'completed', 'archived'] }).notNull(),
    config: json<SessionConfigValue>('config').notNull(),
    metadata: json<SessionMetadataValue>('metadata').notNull(),
    context: json<SessionContextState>('context').notNull(),
    operationCount: integer('operation_count').notNull().default(0),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
    lastActivityAt: text('last_activity_at').notNull(),
    completedAt: text('completed_at'),
    archivedAt: text('archived_at'),
    archivedReason: text('archived_reason', { enum: ['manual', 'inactivity'] }),
  },
  (t) => [index('sessions_user_status').on(t.userId, t.status), index('sessions_status_activity').on(t.status, t.lastActivityAt)],
);

export const sessionOperations = pgTable(
  'session_operations',
  {
    id: text('id').primaryKey(),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    kind: text('kind', { enum: ['search', 'crawl', 'ask'] }).notNull(),
    status: text('status', { enum: ['running', 'completed', 'failed'] }).notNull(),
    query: text('query'),
    targetUrls: json<string[]>('target_urls').notNull(),
    resultCount: integer('result_count').notNull().default(0),
    filteredCount: integer('filtered_count').notNull().default(0),
    resultUrls: json<string[]>('result_urls').notNull().default([]),
    resultSummary: text('result_summary'),
    credits: integer('credits').notNull().default(0),
    resourceId: text('resource_id'),
    error: text('error'),
    startedAt: text('started_at').notNull(),
    finishedAt: text('finished_at'),
  },
  (t) => [uniqueIndex('session_operations_seq').on(t.sessionId, t.seq)],
);

export const sessionSeenUrls = pgTable(
  'session_seen_urls',
  {
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    operationId: text('operation_id').notNull(),
    seenAt: text('seen_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.url] })],
);
