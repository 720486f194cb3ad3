import { sqliteTable, text, integer, index, primaryKey, uniqueIndex } from 'drizzle-orm/sqlite-core';
import type { SessionConfigValue, SessionContextState, SessionMetadataValue } from '../../../sessions/schemas.js';

export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    intentContext: text('intent_context'),
    status: text('status', { enum: ['active', 'completed', 'archived'] }).notNull(),
    config: text('config', { mode: 'json' }).$type<SessionConfigValue>().notNull(),
    metadata: text('metadata', { mode: 'json' }).$type<SessionMetadataValue>().notNull(),
    /** Accumulated from finished operations when accumulate_context is on. */
    context: text('context', { mode: 'json' }).$type<SessionContextState>().notNull(),
    operationCount: integer('operation_count').notNull().default(0),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
    /** What the 7-day auto-archive measures from: creation, edits, transitions and operations. */
    lastActivityAt: text('last_activity_at').notNull(),
    completedAt: text('completed_at'),
    archivedAt: text('archived_at'),
    archivedReason: text('archived_reason', { enum: ['manual', 'inactivity'] }),
  },
  (t) => [index('sessions_user_status').on(t.userId, t.status), index('sessions_status_activity').on(t.status, t.lastActivityAt)],
);

export const sessionOperations = sqliteTable(
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
    targetUrls: text('target_urls', { mode: 'json' }).$type<string[]>().notNull(),
    resultCount: integer('result_count').notNull().default(0),
    filteredCount: integer('filtered_count').notNull().default(0),
    /** The URLs the operation returned (after filtering), in result order, for the timeline. */
    resultUrls: text('result_urls', { mode: 'json' }).$type<string[]>().notNull().default([]),
    resultSummary: text('result_summary'),
    credits: integer('credits').notNull().default(0),
    resourceId: text('resource_id'),
    error: text('error'),
    startedAt: text('started_at').notNull(),
    finishedAt: text('finished_at'),
  },
  (t) => [uniqueIndex('session_operations_seq').on(t.sessionId, t.seq)],
);

export const sessionSeenUrls = sqliteTable(
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
