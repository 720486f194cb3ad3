import type { Principal } from '../accounts/schemas.js';
import type { CrawlDetail } from '../crawl/responses.js';
import type { SearchJob } from '../search/schemas.js';
import type { ContextDocument } from './context.js';
import type { OperationOutcome } from './operation-records.js';

/**
 * How the sessions service reads the job behind an operation still running (an async search or
 * crawl) when the session is read; engine.ts passes the search and crawl services.
 */
export interface SessionJobReader {
  search: { get(principal: Principal | null, id: string): Promise<SearchJob> };
  crawls: { get(principal: Principal | null, id: string): CrawlDetail | Promise<CrawlDetail> };
}

/** What a search job adds to its session once it has ended; null while it runs. */
export function searchOutcome(job: SearchJob): OperationOutcome | null {
  if (job.status === 'pending' || job.status === 'running') return null;
  return {
    status: job.status,
    documents: job.results.map((r): ContextDocument => ({ url: r.url, title: r.title, text: r.description, document_type: r.source_type })),
    credits: job.credits.consumed,
    resultSummary: `${job.results.length} results`,
    resourceId: job.id,
    ...(job.error ? { error: job.error } : {}),
  };
}

/** What a crawl adds to its session once it has ended (`filtered`: pages the session's URL rules dropped); null while it runs. */
export function crawlOutcome(crawl: CrawlDetail, filtered: number): OperationOutcome | null {
  if (crawl.status === 'pending' || crawl.status === 'running') return null;
  return {
    status: crawl.status === 'completed' ? 'completed' : 'failed',
    documents: crawl.documents.map((d) => ({
      url: d.url,
      title: d.title,
      text: d.text,
      content_type: d.content_type,
      document_type: d.classification?.label ?? null,
    })),
    filteredCount: filtered,
    credits: crawl.stats.credits_used,
    resultSummary: `${crawl.documents.length} pages`,
    resourceId: crawl.id,
    ...(crawl.error ? { error: crawl.error } : {}),
  };
}
