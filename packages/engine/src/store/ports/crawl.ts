import type { LinkRegion } from '../../html/links.js';
import type { CrawlStatus, CrawlStrategy, FrontierBucket, FrontierState } from '../../crawl/vocabulary.js';

/** One crawl as stored; `config` is the validated request exactly as the caller gave it. Times are ISO strings, `runAt` engine-clock ms. */
export interface CrawlRecord {
  id: string;
  userId: string;
  status: CrawlStatus;
  config: Record<string, unknown>;
  strategy: CrawlStrategy;
  maxDepth: number;
  maxPages: number;
  maxCredits: number | null;
  pricePerPage: number;
  reservationId: string | null;
  pagesFetched: number;
  pagesFailed: number;
  pagesCached: number;
  pagesSkipped: number;
  /** Pages a classifier dropped (the enricher said keep: false): fetched, neither stored nor charged. */
  pagesFiltered: number;
  creditsUsed: number;
  sessionId: string | null;
  runAt: number;
  smartCrawl: Record<string, unknown> | null;
  summary: string | null;
  error: string | null;
  lastFailure: string | null;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
}

/** A crawl as created: its counters start at zero, its outcome fields empty. */
export type NewCrawl = Pick<
  CrawlRecord,
  'id' | 'userId' | 'status' | 'config' | 'strategy' | 'maxDepth' | 'maxPages' | 'maxCredits' | 'pricePerPage' | 'reservationId' | 'sessionId' | 'runAt' | 'createdAt'
>;

/** What a status change may write besides the status. */
export type CrawlTransition = Partial<Pick<CrawlRecord, 'status' | 'runAt' | 'startedAt' | 'completedAt' | 'error' | 'smartCrawl' | 'summary'>>;

/** What a running crawl reads of its own row before each page. */
export type RunState = Pick<CrawlRecord, 'status' | 'pagesFetched' | 'pagesFailed' | 'pagesCached' | 'pricePerPage' | 'reservationId' | 'lastFailure'>;

export interface CrawlListFilter {
  userId: string;
  /** Crawls of others shared with the caller (their ids), listed with the caller's own. */
  sharedIds: readonly string[];
  status?: CrawlStatus | undefined;
  limit: number;
  offset: number;
}

/** One fetched page as stored. */
export interface CrawlDocumentRecord {
  crawlId: string;
  url: string;
  /** The frontier's discovery order: crawl order. */
  seq: number;
  finalUrl: string;
  statusCode: number;
  contentType: string;
  depth: number;
  title: string | null;
  description: string | null;
  language: string | null;
  publishedDate: string | null;
  text: string;
  markdown: string;
  links: { url: string; text: string }[];
  metadata: Record<string, unknown>;
  extractedData: Record<string, unknown> | null;
  classification: { label: string; confidence: number } | null;
  /** generate_summary: the page's summary from engine.extraction (model or extractive). */
  summary: string | null;
  fromCache: boolean;
  credits: number;
  importance: number;
  hubScore: number;
  authorityScore: number;
  inlinks: number;
  outlinks: number;
  anchors: string[];
  fetchedAt: string;
}

/** A document as a progress read shows it: what names and ranks it, none of its content. */
export type BestPageRecord = Pick<CrawlDocumentRecord, 'url' | 'finalUrl' | 'title' | 'statusCode' | 'depth' | 'importance'>;

/** A document as the runner writes it; its graph scores come later (`setScores`). */
export type NewCrawlDocument = Omit<CrawlDocumentRecord, 'importance' | 'hubScore' | 'authorityScore' | 'outlinks'>;

/** A document's graph scores as the refresh rewrites them. */
export type DocumentScores = Pick<CrawlDocumentRecord, 'url' | 'importance' | 'hubScore' | 'authorityScore' | 'inlinks' | 'outlinks' | 'anchors'>;

/** A stored document's scores (anchors counted) beside its frontier node, for the score refresh. */
export interface DocumentNode extends Omit<DocumentScores, 'anchors'> {
  anchorCount: number;
  /** The frontier row id; null when the document's URL has no frontier row. */
  node: number | null;
  /** The node's OPIC weight (history + cash); 0 without a node. */
  weight: number;
  nodeInlinks: number;
  nodeAnchors: string[];
}

/** A frontier URL. `id` numbers it within the store (SQLite's rowid, PostgreSQL's identity): the link graph is kept by it. */
export interface FrontierRow {
  id: number;
  url: string;
  /** Discovery order within the crawl: 1, 2, 3 ... new URLs only. */
  seq: number;
  depth: number;
  state: FrontierState;
  bucket: FrontierBucket;
  relevance: number;
  /** OPIC: the cash a URL holds until it is fetched, and what it banked (history) since. */
  cash: number;
  history: number;
  authority: number;
  priority: number;
  inlinks: number;
  /** Up to ten distinct anchor texts, in the order they were found. */
  anchors: string[];
  context: string;
}

/** The orders a crawl's documents are read in: discovery order, or importance first with ties in discovery order. */
export type DocumentOrder = 'crawl' | 'importance';

/** A link found to a URL (or a seed, or a sitemap entry), already normalised. */
export interface Discovered {
  url: string;
  depth: number;
  bucket: FrontierBucket;
  relevance: number;
  anchor: string;
  context: string;
  cash: number;
}

/** A known URL's relevance after a new anchor joined its anchors: only the crawl's scorer knows it. */
export type Rescore = (url: string, anchors: string[], context: string) => number;

/** The link graph as frontier row ids: edge i runs from `from[i]` to `to[i]` with HITS weight `weight[i]`. */
export interface EdgeIds {
  from: number[];
  to: number[];
  weight: number[];
}

/**
 * One crawl's frontier. A crawl run owns its crawl (the job lease), so a handle may keep counters
 * (discovery order) for itself; the batch forms take a whole page's links in one call, which on
 * PostgreSQL is a few statements, not one round trip per link.
 */
export interface FrontierPort {
  get(url: string): Promise<FrontierRow | undefined>;
  /** Which of these URLs the frontier already knows, in any state. */
  known(urls: readonly string[]): Promise<Set<string>>;
  /** The seeds (normalised, deduplicated) share OPIC's initial cash of 1 and are fetched before anything else. */
  seed(urls: readonly string[]): Promise<void>;
  /** URLs the caller saw before (a session's filter_seen_urls): known to the graph, never fetched. Known ones stay as they are. */
  markSeen(urls: readonly string[]): Promise<void>;
  /** URLs claimed by a run that died are queued again: their documents were never written. */
  requeueInFlight(): Promise<void>;
  /**
   * Each link in turn, as if one at a time: a new URL is queued with the next discovery number; a
   * known one gets one more inlink, the link's anchor (up to ten, relevance rescored by `rescore` when it is new),
   * the link's cash while it is still to be fetched, the shallower depth, and a fresh priority; a known URL waiting in
   * the explore bucket moves to detail when the link's bucket is detail, and takes the link's relevance if higher. The
   * URLs' row ids, in the links' order. Without `rescore` (a crawl without an intent: nothing scores anchors), a new
   * anchor is kept and the relevance stays as it was.
   */
  discoverMany(links: readonly Discovered[], rescore?: Rescore): Promise<number[]>;
  /** Stores each link from `from` once, with where it sat on the page; true for each one stored now (not known before). */
  addEdges(from: string, links: readonly { url: string; region: LinkRegion }[]): Promise<boolean[]>;
  /**
   * What the next claims may choose from, not yet claimed: the `limit` shallowest, oldest queued URLs
   * (`breadth_first`), or the `limit` best of each bucket by priority then discovery (`buckets`), in that
   * order. Inside a transaction no other claimer gets them until it ends (PostgreSQL: `FOR UPDATE SKIP
   * LOCKED`), so a run picks among them and `claim`s its picks: two statements for a batch of claims.
   */
  candidates(order: 'buckets' | 'breadth_first', limit: number): Promise<FrontierRow[]>;
  /** Claims these candidates (`fetching`); the same rows in that state. */
  claim(rows: readonly FrontierRow[]): Promise<FrontierRow[]>;
  setState(url: string, state: FrontierState): Promise<void>;
  /** OPIC: a fetched URL (now `done`) banks its cash into its history; the cash it held, for its links. 0 when unknown. */
  bankCash(url: string): Promise<number>;
  /** A URL covered by another (a redirect target, a canonical) is never fetched on its own: `duplicate` when new or queued. */
  markCovered(url: string, depth: number): Promise<void>;
  /** URLs per bucket among those in the given states. */
  countsByBucket(states: readonly FrontierState[]): Promise<Record<FrontierBucket, number>>;
  /**
   * HITS refresh: each queued URL's authority estimate (by row id) and the priority that follows
   * from it, written where the authority changed. Reads the queue a page at a time.
   */
  applyAuthority(authorityOf: (rowId: number) => number): Promise<void>;
  /** OPIC's total: all the cash banked and still held. */
  mass(): Promise<number>;
  /** The stored links as row ids, weighted by region: a few bytes an edge, however long the URLs. */
  edgeIds(weights: Readonly<Record<LinkRegion, number>>): Promise<EdgeIds>;
  /** The graph's nodes (URLs neither covered nor seen before), how many were fetched, and the OPIC weight they banked. */
  totals(): Promise<{ nodes: number; fetched: number; banked: number }>;
  /** The heaviest nodes by OPIC weight (history + cash), ties by URL. */
  heaviest(limit: number): Promise<{ url: string; weight: number; inlinks: number }[]>;
  /** The URLs of these row ids, by id (ids not in this crawl's frontier are left out). */
  urlsOf(rowIds: readonly number[]): Promise<Map<number, string>>;
  /** Visits every URL with its row id without holding them all: streamed or read a page at a time. */
  forEachUrl(visit: (rowId: number, url: string) => void): Promise<void>;
}

/** Crawls, their documents and their frontiers. */
export interface CrawlPort {
  insert(crawl: NewCrawl): Promise<void>;
  get(id: string): Promise<CrawlRecord | undefined>;
  /** The user's crawls and the shared ones, newest first, and how many match. */
  list(filter: CrawlListFilter): Promise<{ rows: CrawlRecord[]; total: number }>;
  /** Writes `fields` only while the crawl's status is one of `from` (compare-and-set); true when written. */
  transition(id: string, from: readonly CrawlStatus[], fields: CrawlTransition): Promise<boolean>;
  runState(id: string): Promise<RunState | undefined>;
  countFailed(id: string, lastFailure: string): Promise<void>;
  countSkipped(id: string): Promise<void>;
  countFiltered(id: string): Promise<void>;
  countFetched(id: string, credits: number, fromCache: boolean): Promise<void>;
  /** URLs waiting in the frontier (an indexed count). */
  queuedCount(id: string): Promise<number>;

  /** Once per URL: a second write of the same URL is ignored. */
  insertDocument(doc: NewCrawlDocument): Promise<void>;
  /** In crawl order or by importance (ties in crawl order, so pages never overlap); every document when `limit` is undefined. */
  documents(crawlId: string, page: { order: DocumentOrder; limit?: number | undefined; offset?: number | undefined }): Promise<CrawlDocumentRecord[]>;
  documentCount(crawlId: string): Promise<number>;
  /** The `limit` most important documents (ties in crawl order), without their content: a poll's light read. */
  bestPages(crawlId: string, limit: number): Promise<BestPageRecord[]>;
  /** The classified documents' labels, in crawl order. */
  classifications(crawlId: string): Promise<{ url: string; classification: { label: string; confidence: number } }[]>;
  /** Content fingerprints of the documents stored so far (`metadata.content_fingerprint`). */
  fingerprints(crawlId: string): Promise<string[]>;
  /** Every document with its frontier node: bounded by the crawl's documents (max_pages), not its frontier. */
  documentNodes(crawlId: string): Promise<DocumentNode[]>;
  setScores(crawlId: string, scores: readonly DocumentScores[]): Promise<void>;
  /** Most important (OPIC weight) first, for the crawl summary. */
  summaries(crawlId: string): Promise<{ url: string; title: string | null; text: string; summary: string | null }[]>;

  /** The frontier of one crawl; `intent` picks the priority blend (see crawl/vocabulary.ts). */
  frontier(crawlId: string, intent: boolean): FrontierPort;
}
