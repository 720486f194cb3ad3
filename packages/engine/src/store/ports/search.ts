import type { z } from 'zod';
import type { CreditsInfo } from '../../credits/schemas.js';
import type { FullSearchResult, SearchJobStatus as Status, SearchSessionContext, SearchSummary } from '../../search/schemas.js';

export type SearchJobStatus = z.infer<typeof Status>;

/** One full search as stored (sync ones too, so they appear in the history). Times are ISO strings. */
export interface SearchJobRecord {
  id: string;
  userId: string;
  status: SearchJobStatus;
  query: string;
  /** The validated request as given, so a job re-reads exactly what its creator asked for. */
  request: Record<string, unknown>;
  sessionContext: SearchSessionContext | null;
  provider: string;
  results: FullSearchResult[] | null;
  suggestedQueries: string[] | null;
  summary: SearchSummary | null;
  credits: CreditsInfo;
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
}

/** Search jobs: the history of full searches and the state of those still running. */
export interface SearchJobsPort {
  insert(job: SearchJobRecord): Promise<void>;
  get(id: string): Promise<SearchJobRecord | undefined>;
  /** One user's jobs (of one status, when given), newest first, and how many there are. */
  list(userId: string, status: SearchJobStatus | undefined, page: { limit: number; offset: number }): Promise<{ rows: SearchJobRecord[]; total: number }>;
  /** Writes the given fields of one job. */
  update(id: string, fields: Partial<Omit<SearchJobRecord, 'id'>>): Promise<void>;
  delete(id: string): Promise<void>;
  /** How many jobs the user has in each status (statuses without jobs are absent). */
  countByStatus(userId: string): Promise<Partial<Record<SearchJobStatus, number>>>;
}

/** Who is asking: their own pages, pages of crawls shared with them, and the public cache. */
export interface Visibility {
  userId: string;
  sharedCrawlIds: string[];
}

/** A domain a search keeps or drops, subdomains included; `anyPort` when the filter named no port. */
export interface DomainFilter {
  domain: string;
  anyPort: boolean;
}

/** One page copy as the index stores it: the caller has already decided its scope and capped its text. */
export interface IndexedPageRecord {
  url: string;
  /** `crawl:<id>`, `user:<id>` or `public`: a copy replaces only the copy of its own scope. */
  scope: string;
  ownerUserId: string | null;
  crawlId: string | null;
  domain: string;
  title: string;
  description: string;
  headings: string[];
  body: string;
  urlTokens: string;
  anchorTexts: string[];
  schemaTypes: string[];
  publishedDate: string | null;
  language: string | null;
  fetchedAt: string;
}

/** One ranking pass over the index, filtered by visibility and domains in the store. */
export interface IndexMatch {
  /** The query's terms (already tokenized): `all` requires every one, `any` at least one. */
  terms: string[];
  /** Terms that raise a page's rank without being required. */
  optionalTerms: string[];
  mode: 'all' | 'any';
  /** Rows to read; a URL may come back once per scope that holds it. */
  limit: number;
  visibility: Visibility;
  includeDomains: DomainFilter[];
  excludeDomains: DomainFilter[];
}

/** A ranked page copy: ids only, so ranking never computes snippets for rows it drops. */
export interface RankedPage {
  id: number;
  url: string;
  /** Larger is better (-bm25 on SQLite, ts_rank_cd on PostgreSQL). */
  rank: number;
}

/** What a result shows of a kept page copy. */
export interface PageDetail {
  id: number;
  domain: string;
  title: string;
  description: string;
  /** Body text around the match's terms. */
  snippet: string;
  schemaTypes: string[];
  publishedDate: string | null;
}

/** One page's copy as the index holds it. */
export interface IndexedPage {
  url: string;
  title: string;
  text: string;
  publishedDate: string | null;
  fetchedAt: string;
}

/**
 * The local full-text index. Every read is filtered by visibility inside the store, so another
 * tenant's private pages never leave the database.
 */
export interface SearchIndexPort {
  /** Adds or replaces each page's copy of its scope, all in one write; returns their ids in order. */
  put(pages: readonly IndexedPageRecord[]): Promise<number[]>;
  /** Drops every page a crawl indexed; returns how many. */
  removeCrawl(crawlId: string): Promise<number>;
  /** Matching page copies the caller may see, best first. */
  rank(q: IndexMatch): Promise<RankedPage[]>;
  /** Fields and snippets of page copies `rank` returned for the same match. */
  details(ids: readonly number[], q: IndexMatch): Promise<PageDetail[]>;
  /** The visible copy of one URL: the caller's own or a shared crawl's before the public cache, newest first. */
  page(url: string, visibility: Visibility): Promise<IndexedPage | null>;
  /** Pages a user owns (their crawls and personal copies) and the size of the public cache. */
  counts(userId: string): Promise<{ own_pages: number; public_pages: number }>;
}
