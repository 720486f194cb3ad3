import { pgTable, text, integer } from 'drizzle-orm/pg-core';
import { epochMs, json } from './types.js';

// Mirrors store/sqlite web tables (parity.test.ts checks tables and columns match).
export const webCache = pgTable('web_cache', {
  url: text('url').primaryKey(),
  finalUrl: text('final_url').notNull(),
  redirects: json<string[]>('redirects').notNull(),
  fetchedAt: epochMs('fetched_at').notNull(),
  status: integer('status').notNull(),
  headers: json<Record<string, string>>('headers').notNull(),
  contentType: text('content_type').notNull(),
  kind: text('kind').notNull(),
  charset: text('charset'),
  canonicalUrl: text('canonical_url'),
  body: text('body'),
  bytes: integer('bytes').notNull(),
});

/** Request pacing shared by every server and worker: the next start reserved at each origin, ms on the database clock. */
export const hostGates = pgTable('host_gates', {
  origin: text('origin').primaryKey(),
  nextStart: epochMs('next_start').notNull(),
});
