import { sql } from 'drizzle-orm';
import { pgTable, text, bigint, index, uniqueIndex } from 'drizzle-orm/pg-core';
import type { CreditsInfo } from '../../../credits/schemas.js';
import type { FullSearchResult, SearchSessionContext, SearchSummary } from '../../../search/schemas.js';
import { json, tsvector } from './types.js';

// Mirrors store/sqlite search tables (parity.test.ts checks tables and columns match).
export const searchPages = pgTable(
  'search_pages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    url: text('url').notNull(),
    scope: text('scope').notNull(),
    ownerUserId: text('owner_user_id'),
    crawlId: text('crawl_id'),
    domain: text('domain').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    schemaTypes: json<string[]>('schema_types').notNull(),
    publishedDate: text('published_date'),
    language: text('language'),
    fetchedAt: text('fetched_at').notNull(),
  },
  (t) => [
    uniqueIndex('search_pages_url_scope').on(t.url, t.scope),
    index('search_pages_crawl').on(t.crawlId),
    index('search_pages_owner').on(t.ownerUserId),
  ],
);

/**
 * The searchable text, PostgreSQL's counterpart of SQLite's FTS5 table `search_fts` (same name and
 * text columns, `page_id` for FTS5's rowid). `document` is a weighted tsvector kept by the database
 * itself (a stored generated column, so no writer can forget it): title and anchors weigh A,
 * headings and URL tokens B, body C; GIN-indexed for `@@` matches and ranked with `ts_rank_cd`.
 * The text columns stay so snippets (`ts_headline`) are made only for the rows a query keeps.
 * 'english' stems like FTS5's porter tokenizer. A page's row goes with it (ON DELETE CASCADE, as
 * SQLite's delete trigger).
 */
export const searchFts = pgTable(
  'search_fts',
  {
    pageId: bigint('page_id', { mode: 'number' })
      .primaryKey()
      .references(() => searchPages.id, { onDelete: 'cascade' }),
    title: text('title').notNull().default(''),
    headings: text('headings').notNull().default(''),
    body: text('body').notNull().default(''),
    urlTokens: text('url_tokens').notNull().default(''),
    anchors: text('anchors').notNull().default(''),
    document: tsvector('document')
      .notNull()
      .generatedAlwaysAs(
        sql`setweight(to_tsvector('english'::regconfig, "title"), 'A') || setweight(to_tsvector('english'::regconfig, "anchors"), 'A') || setweight(to_tsvector('english'::regconfig, "headings"), 'B') || setweight(to_tsvector('english'::regconfig, "url_tokens"), 'B') || setweight(to_tsvector('english'::regconfig, "body"), 'C')`,
      ),
  },
  (t) => [index('search_fts_document').using('gin', t.document)],
);

export const searchJobs = pgTable(
  'search_jobs',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    status: text('status', { enum: ['pending', 'running', 'completed', 'failed'] }).notNull(),
    query: text('query').notNull(),
    request: json<Record<string, unknown>>('request').notNull(),
    sessionContext: json<SearchSessionContext>('session_context'),
    provider: text('provider').notNull(),
    results: json<FullSearchResult[]>('results'),
    suggestedQueries: json<string[]>('suggested_queries'),
    summary: json<SearchSummary>('summary'),
    credits: json<CreditsInfo>('credits').notNull(),
    error: text('error'),
    createdAt: text('created_at').notNull(),
    startedAt: text('started_at'),
    completedAt: text('completed_at'),
  },
  (t) => [index('search_jobs_user').on(t.userId, t.createdAt), index('search_jobs_status').on(t.status)],
);
