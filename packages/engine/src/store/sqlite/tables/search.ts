import { sqliteTable, text, integer, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import type { CreditsInfo } from '../../../credits/schemas.js';
import type { FullSearchResult } from '../../../search/schemas.js';
import type { SearchSummary } from '../../../search/schemas.js';
import type { SearchSessionContext } from '../../../search/schemas.js';

/**
 * One row per indexed page copy. The same URL may be held once in the public web cache
 * (owner null) and once per crawl that fetched it; `scope` keys that copy, so a re-crawl
 * replaces its own copy and never another tenant's. The searchable text lives in the FTS5
 * table `search_fts` (custom migration), whose rowid is this table's id.
 */
export const searchPages = sqliteTable(
  'search_pages',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    url: text('url').notNull(),
    /** `crawl:<id>`, `user:<id>` or `public`. */
    scope: text('scope').notNull(),
    ownerUserId: text('owner_user_id'),
    crawlId: text('crawl_id'),
    domain: text('domain').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    schemaTypes: text('schema_types', { mode: 'json' }).$type<string[]>().notNull(),
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

/** Full searches (sync ones too, so they appear in the history) and their outcome. */
export const searchJobs = sqliteTable(
  'search_jobs',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    status: text('status', { enum: ['pending', 'running', 'completed', 'failed'] }).notNull(),
    query: text('query').notNull(),
    request: text('request', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    sessionContext: text('session_context', { mode: 'json' }).$type<SearchSessionContext>(),
    provider: text('provider').notNull(),
    results: text('results', { mode: 'json' }).$type<FullSearchResult[]>(),
    suggestedQueries: text('suggested_queries', { mode: 'json' }).$type<string[]>(),
    summary: text('summary', { mode: 'json' }).$type<SearchSummary>(),
    credits: text('credits', { mode: 'json' }).$type<CreditsInfo>().notNull(),
    error: text('error'),
    createdAt: text('created_at').notNull(),
    startedAt: text('started_at'),
    completedAt: text('completed_at'),
  },
  (t) => [index('search_jobs_user').on(t.userId, t.createdAt), index('search_jobs_status').on(t.status)],
);
