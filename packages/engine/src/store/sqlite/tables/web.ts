import { sqliteTable, text, integer } from 'drizzle-orm/sqlite-core';

/**
 * The global page cache, shared by every user and tier: one row per normalised URL, replaced
 * on every successful fetch. `fetched_at` is ms since the epoch on the engine clock.
 */
export const webCache = sqliteTable('web_cache', {
  url: text('url').primaryKey(),
  finalUrl: text('final_url').notNull(),
  redirects: text('redirects', { mode: 'json' }).$type<string[]>().notNull(),
  fetchedAt: integer('fetched_at').notNull(),
  status: integer('status').notNull(),
  headers: text('headers', { mode: 'json' }).$type<Record<string, string>>().notNull(),
  contentType: text('content_type').notNull(),
  kind: text('kind').notNull(),
  charset: text('charset'),
  canonicalUrl: text('canonical_url'),
  body: text('body'),
  bytes: integer('bytes').notNull(),
});


/**
 * Request pacing shared by every process on the file: the next start reserved at each origin with a
 * delay (Crawl-delay, minHostDelayMs), ms since the epoch on the wall clock (what processes share).
 */
export const hostGates = sqliteTable('host_gates', {
  origin: text('origin').primaryKey(),
  nextStart: integer('next_start').notNull(),
});
