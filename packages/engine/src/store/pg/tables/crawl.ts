import { pgTable, text, integer, bigint, doublePrecision, boolean, index, primaryKey, uniqueIndex } from 'drizzle-orm/pg-core';
import { epochMs, json } from './types.js';

// Mirrors store/sqlite crawl tables (parity.test.ts checks tables and columns match).
export const crawls = pgTable(
  'crawls',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    status: text('status', { enum: ['pending', 'running', 'completed', 'failed', 'cancelled'] }).notNull(),
    config: json<Record<string, unknown>>('config').notNull(),
    strategy: text('strategy', { enum: ['smart', 'breadth_first'] }).notNull(),
    maxDepth: integer('max_depth').notNull(),
    maxPages: integer('max_pages').notNull(),
    maxCredits: integer('max_credits'),
    pricePerPage: integer('price_per_page').notNull(),
    reservationId: text('reservation_id'),
    pagesFetched: integer('pages_fetched').notNull().default(0),
    pagesFailed: integer('pages_failed').notNull().default(0),
    pagesCached: integer('pages_cached').notNull().default(0),
    pagesSkipped: integer('pages_skipped').notNull().default(0),
    pagesFiltered: integer('pages_filtered').notNull().default(0),
    creditsUsed: integer('credits_used').notNull().default(0),
    sessionId: text('session_id'),
    runAt: epochMs('run_at').notNull(),
    smartCrawl: json<Record<string, unknown>>('smart_crawl'),
    summary: text('summary'),
    error: text('error'),
    lastFailure: text('last_failure'),
    createdAt: text('created_at').notNull(),
    startedAt: text('started_at'),
    completedAt: text('completed_at'),
  },
  (t) => [index('crawls_user').on(t.userId, t.createdAt)],
);

/**
 * `id` numbers a frontier URL as SQLite's rowid does there: the link graph is kept in memory by it
 * (a few bytes an edge), so it must be an integer, stable for the row's life. The only column
 * PostgreSQL has and SQLite does not show (parity.test.ts). Indexed behind `crawl_id`: a crawl's
 * frontier is walked by id a page at a time (authority refresh, the report) and read by ids (`urlsOf`).
 */
export const crawlFrontier = pgTable(
  'crawl_frontier',
  {
    id: bigint('id', { mode: 'number' }).notNull().generatedByDefaultAsIdentity(),
    crawlId: text('crawl_id').notNull(),
    url: text('url').notNull(),
    seq: integer('seq').notNull(),
    depth: integer('depth').notNull(),
    state: text('state', { enum: ['queued', 'fetching', 'done', 'failed', 'duplicate', 'seen', 'filtered'] }).notNull(),
    bucket: text('bucket', { enum: ['seed', 'hub', 'detail', 'explore'] }).notNull(),
    relevance: doublePrecision('relevance').notNull().default(0),
    cash: doublePrecision('cash').notNull().default(0),
    history: doublePrecision('history').notNull().default(0),
    authority: doublePrecision('authority').notNull().default(0),
    priority: doublePrecision('priority').notNull().default(0),
    inlinks: integer('inlinks').notNull().default(0),
    anchors: json<string[]>('anchors').notNull(),
    context: text('context').notNull().default(''),
  },
  (t) => [
    primaryKey({ columns: [t.crawlId, t.url] }),
    index('crawl_frontier_next').on(t.crawlId, t.state, t.bucket, t.priority),
    index('crawl_frontier_bfs').on(t.crawlId, t.state, t.depth, t.seq),
    uniqueIndex('crawl_frontier_id').on(t.crawlId, t.id),
  ],
);

export const crawlEdges = pgTable(
  'crawl_edges',
  {
    crawlId: text('crawl_id').notNull(),
    fromUrl: text('from_url').notNull(),
    toUrl: text('to_url').notNull(),
    region: text('region', { enum: ['main', 'nav', 'header', 'footer', 'aside'] }).notNull().default('main'),
  },
  (t) => [primaryKey({ columns: [t.crawlId, t.fromUrl, t.toUrl] })],
);

export const crawlDocuments = pgTable(
  'crawl_documents',
  {
    crawlId: text('crawl_id').notNull(),
    url: text('url').notNull(),
    seq: integer('seq').notNull(),
    finalUrl: text('final_url').notNull(),
    statusCode: integer('status_code').notNull(),
    contentType: text('content_type').notNull(),
    depth: integer('depth').notNull(),
    title: text('title'),
    description: text('description'),
    language: text('language'),
    publishedDate: text('published_date'),
    text: text('text').notNull(),
    markdown: text('markdown').notNull(),
    links: json<{ url: string; text: string }[]>('links').notNull(),
    metadata: json<Record<string, unknown>>('metadata').notNull(),
    extractedData: json<Record<string, unknown>>('extracted_data'),
    classification: json<{ label: string; confidence: number }>('classification'),
    summary: text('summary'),
    fromCache: boolean('from_cache').notNull(),
    credits: integer('credits').notNull(),
    fetchedAt: text('fetched_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.crawlId, t.url] }), index('crawl_documents_seq').on(t.crawlId, t.seq)],
);

/**
 * A stored document's graph scores, rewritten at every score refresh, beside its row as in SQLite
 * (see sqlite/tables/crawl.ts): an update here writes a new version of a narrow row, not of the page's.
 */
export const crawlDocumentScores = pgTable(
  'crawl_document_scores',
  {
    crawlId: text('crawl_id').notNull(),
    url: text('url').notNull(),
    importance: doublePrecision('importance').notNull().default(0),
    hubScore: doublePrecision('hub_score').notNull().default(0),
    authorityScore: doublePrecision('authority_score').notNull().default(0),
    inlinks: integer('inlinks').notNull().default(0),
    outlinks: integer('outlinks').notNull().default(0),
    anchors: json<string[]>('anchors').notNull(),
  },
  (t) => [primaryKey({ columns: [t.crawlId, t.url] })],
);
