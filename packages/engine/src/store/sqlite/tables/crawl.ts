import { isNotNull } from 'drizzle-orm';
import { sqliteTable, text, integer, real, index, primaryKey } from 'drizzle-orm/sqlite-core';

/** One row per crawl job; `config` is the validated request exactly as the caller gave it. */
export const crawls = sqliteTable(
  'crawls',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    status: text('status', { enum: ['pending', 'running', 'completed', 'failed', 'cancelled'] }).notNull(),
    config: text('config', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
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
    /** Pages a classifier dropped (the enricher said keep: false): fetched, neither stored nor charged. */
    pagesFiltered: integer('pages_filtered').notNull().default(0),
    creditsUsed: integer('credits_used').notNull().default(0),
    sessionId: text('session_id'),
    runAt: integer('run_at').notNull(),
    smartCrawl: text('smart_crawl', { mode: 'json' }).$type<Record<string, unknown>>(),
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
 * The frontier: every URL a crawl has seen, keyed by its normalised form, so memory stays flat
 * however many URLs are discovered. `cash` / `history` are OPIC's; `priority` is written with
 * every change so the next URL is an index lookup.
 */
export const crawlFrontier = sqliteTable(
  'crawl_frontier',
  {
    crawlId: text('crawl_id').notNull(),
    url: text('url').notNull(),
    seq: integer('seq').notNull(),
    depth: integer('depth').notNull(),
    state: text('state', { enum: ['queued', 'fetching', 'done', 'failed', 'duplicate', 'seen', 'filtered'] }).notNull(),
    bucket: text('bucket', { enum: ['seed', 'hub', 'detail', 'explore'] }).notNull(),
    relevance: real('relevance').notNull().default(0),
    cash: real('cash').notNull().default(0),
    history: real('history').notNull().default(0),
    authority: real('authority').notNull().default(0),
    priority: real('priority').notNull().default(0),
    inlinks: integer('inlinks').notNull().default(0),
    anchors: text('anchors', { mode: 'json' }).$type<string[]>().notNull(),
    context: text('context').notNull().default(''),
  },
  (t) => [
    primaryKey({ columns: [t.crawlId, t.url] }),
    index('crawl_frontier_next').on(t.crawlId, t.state, t.bucket, t.priority),
    index('crawl_frontier_bfs').on(t.crawlId, t.state, t.depth, t.seq),
  ],
);

/**
 * The discovered link graph, for HITS and the smart_crawl statistics. `region` is where on the
 * linking page the link sat (its most editorial placement when it sat in several); HITS weighs
 * the edge by it, and keeping it here lets a resumed run rebuild the same weighted graph.
 */
export const crawlEdges = sqliteTable(
  'crawl_edges',
  {
    crawlId: text('crawl_id').notNull(),
    fromUrl: text('from_url').notNull(),
    toUrl: text('to_url').notNull(),
    region: text('region', { enum: ['main', 'nav', 'header', 'footer', 'aside'] }).notNull().default('main'),
  },
  (t) => [primaryKey({ columns: [t.crawlId, t.fromUrl, t.toUrl] })],
);

/** One row per fetched page; written in the same transaction that charges it, so no page is charged twice. */
export const crawlDocuments = sqliteTable(
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
    links: text('links', { mode: 'json' }).$type<{ url: string; text: string }[]>().notNull(),
    metadata: text('metadata', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    extractedData: text('extracted_data', { mode: 'json' }).$type<Record<string, unknown>>(),
    classification: text('classification', { mode: 'json' }).$type<{ label: string; confidence: number }>(),
    /** generate_summary: the page's summary from engine.extraction (model or extractive). */
    summary: text('summary'),
    fromCache: integer('from_cache', { mode: 'boolean' }).notNull(),
    credits: integer('credits').notNull(),
    fetchedAt: text('fetched_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.crawlId, t.url] }),
    index('crawl_documents_seq').on(t.crawlId, t.seq),
    // Every read of a crawl lists its classifications, polls included. A row's classification sits behind its text,
    // markdown and links, and SQLite reaches it through the row's overflow pages: without this index each poll read
    // every document of the crawl whole (0.9 ms at 1,000 documents); with it, only the classified ones' entries.
    index('crawl_documents_classified').on(t.crawlId, t.seq, t.url, t.classification).where(isNotNull(t.classification)),
  ],
);

/**
 * A stored document's graph scores, beside its row rather than in it. The crawl rewrites them at
 * every score refresh (each time a quarter more pages were read) and once more at the end. In the
 * document's row they sat behind its text, markdown and links: SQLite rewrites a row whole when
 * its size changes, so each refresh copied every page again (about 60 MB of a 1,000-page crawl's
 * writes), and reading them (the refresh, documents by importance) walked every row's overflow
 * pages. Written with the document, in the same transaction; read joined to it.
 */
export const crawlDocumentScores = sqliteTable(
  'crawl_document_scores',
  {
    crawlId: text('crawl_id').notNull(),
    url: text('url').notNull(),
    importance: real('importance').notNull().default(0),
    hubScore: real('hub_score').notNull().default(0),
    authorityScore: real('authority_score').notNull().default(0),
    inlinks: integer('inlinks').notNull().default(0),
    outlinks: integer('outlinks').notNull().default(0),
    anchors: text('anchors', { mode: 'json' }).$type<string[]>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.crawlId, t.url] })],
);
