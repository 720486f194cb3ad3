import { IdParams } from '../core/schemas.js';
import { pricing } from '../credits/pricing.js';
import { defineOperation } from '../accounts/operation.js';
import { CrawlBody, CrawlDocumentsQuery, CrawlEstimateBody, CrawlGetQuery, CrawlListQuery, CrawlProgressQuery, CrawlShareBody } from './schemas.js';
import { CrawlCreatedSchema, CrawlDetailSchema, CrawlDocumentListSchema, CrawlEstimateSchema, CrawlListSchema, CrawlProgressSchema } from './responses.js';
import type { CrawlService } from './service.js';

type Services = { crawls: CrawlService };
const base = { scope: 'crawl', tag: 'crawls' } as const;
const page = pricing.crawlPage({});
const enriched = pricing.crawlPage({ intent: '' });

export const crawlOperations = {
  // Charged page by page as the crawl goes (a hold of max_pages, committed as pages land): the service does it.
  create: defineOperation({
    ...base,
    id: 'createCrawl',
    summary: 'Crawl seed URLs: async (default), sync (max_pages <= 10) or webhook',
    description:
      `Reserves max_pages x the page price (${page.credits} credit, ${enriched.credits} with classify_documents, extraction_schema, classifiers or intent; cache hits half), ` +
      'commits what was fetched and releases the rest. async and webhook answer at once with the pending job; sync answers with the finished crawl. ' +
      'With dry_run the request is validated and estimated and nothing is created or charged.',
    body: CrawlBody,
    output: CrawlCreatedSchema,
    session: 'crawl',
    run: (s: Services, principal, { body }, { signal }) => s.crawls.create(principal, body, signal ? { signal } : {}),
  }),
  estimate: defineOperation({
    ...base,
    id: 'estimateCrawl',
    summary: 'What a crawl would reserve, and whether your balance covers it',
    body: CrawlEstimateBody,
    output: CrawlEstimateSchema,
    session: 'check',
    run: (s: Services, principal, { body }) => s.crawls.estimate(principal, body),
  }),
  list: defineOperation({
    ...base,
    id: 'listCrawls',
    summary: 'Your crawls and those shared with your organizations, newest first',
    query: CrawlListQuery,
    output: CrawlListSchema,
    run: (s: Services, principal, { query }) => s.crawls.list(principal, query),
  }),
  get: defineOperation({
    ...base,
    id: 'getCrawl',
    summary: 'A crawl: status, configuration, stats, documents, classifications, summary, access_level, smart_crawl',
    description:
      'documents=all (default) carries every document; documents=top the documents_limit most important so far; documents=none none. ' +
      'Pollers should read GET /v1/crawls/{id}/progress, or ask for top or none, and page through GET /v1/crawls/{id}/documents.',
    params: IdParams,
    query: CrawlGetQuery,
    output: CrawlDetailSchema,
    run: (s: Services, principal, { params, query }) => s.crawls.get(principal, params.id!, query),
  }),
  progress: defineOperation({
    ...base,
    id: 'getCrawlProgress',
    summary: "A crawl's progress: status, stats and the best pages so far, without their content",
    description:
      'The light read for polling: status, stats, documents_total and the best_pages (default 5, up to 100) most important pages ' +
      'so far by URL, title, status code, depth and importance_score. None of the pages’ text, markdown or links, nor the configuration.',
    params: IdParams,
    query: CrawlProgressQuery,
    output: CrawlProgressSchema,
    run: (s: Services, principal, { params, query }) => s.crawls.progress(principal, params.id!, query),
  }),
  documents: defineOperation({
    ...base,
    id: 'listCrawlDocuments',
    summary: "A crawl's documents a page at a time, in crawl order (default) or by importance",
    params: IdParams,
    query: CrawlDocumentsQuery,
    output: CrawlDocumentListSchema,
    run: (s: Services, principal, { params, query }) => s.crawls.documents(principal, params.id!, query),
  }),
  cancel: defineOperation({
    ...base,
    id: 'cancelCrawl',
    summary: 'Cancel a running or scheduled crawl; its reserved credits are released',
    params: IdParams,
    output: CrawlDetailSchema,
    run: (s: Services, principal, { params }) => s.crawls.cancel(principal, params.id!),
  }),
  abort: defineOperation({
    ...base,
    id: 'abortCrawl',
    summary: 'Abort a running crawl; pages fetched stay charged, the rest of the reservation is released',
    params: IdParams,
    output: CrawlDetailSchema,
    run: (s: Services, principal, { params }) => s.crawls.abort(principal, params.id!),
  }),
  execute: defineOperation({
    ...base,
    id: 'executeCrawl',
    summary: 'Start a scheduled crawl now',
    params: IdParams,
    output: CrawlDetailSchema,
    run: (s: Services, principal, { params }) => s.crawls.execute(principal, params.id!),
  }),
  share: defineOperation({
    ...base,
    id: 'shareCrawl',
    summary: 'Share a crawl publicly (public_share) or with an organization (shared_with_org, organization_id)',
    params: IdParams,
    body: CrawlShareBody,
    output: CrawlDetailSchema,
    run: (s: Services, principal, { params, body }) => s.crawls.share(principal, params.id!, body),
  }),
  /** Reads of publicly shared crawls, without a caller. */
  getPublic: defineOperation({
    scope: 'public',
    tag: 'public',
    id: 'getPublicCrawl',
    summary: 'A publicly shared crawl',
    description: 'No authentication. Answers 404 unless the crawl has public_share.',
    params: IdParams,
    query: CrawlGetQuery,
    output: CrawlDetailSchema,
    run: (s: Services, _principal, { params, query }) => s.crawls.getPublic(params.id!, query),
  }),
};
