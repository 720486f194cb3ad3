import type { EngineContext } from '../context.js';
import { errors } from '../core/errors.js';
import { parseInput } from '../core/validate.js';
import type { Principal } from '../accounts/schemas.js';
import { PUBLIC_SHARE_STATE, withoutOwnerFields, type SharingService, type ResourceRef } from '../accounts/sharing.js';
import type { CreditsService } from '../credits/service.js';
import { pricing } from '../credits/pricing.js';
import type { NotifyService } from '../notify/service.js';
import type { JobQueue } from '../jobs/index.js';
import type { PageFetcher } from '../web/types.js';
import { assertTiersAvailable } from '../web/tiers.js';
import { CrawlBody, CrawlDocumentsQuery, CrawlEstimateBody, CrawlGetQuery, CrawlListQuery, CrawlProgressQuery, type CrawlGetInput, type CrawlInput } from './schemas.js';
import type { CrawlDocumentRecord, CrawlRecord, DocumentOrder } from '../store/ports/crawl.js';
import { CrawlRunner, effectiveExpansion, type RunnerDeps } from './runner.js';
import type { CrawlStatus } from './vocabulary.js';
import { defaultDepth } from './relevance.js';
import type { PageEnricher } from '../extract/enrichment.js';
import type { IndexedPageRecord } from '../store/ports/search.js';
import type { CrawlDetail, CrawlDocument, CrawlDocumentList, CrawlDryRun, CrawlEstimate, CrawlJob, CrawlList, CrawlProgress } from './responses.js';

type Row = CrawlRecord;

export const CRAWL_JOB = 'crawl.run';
/** A crawl that can still be cancelled. */
const ACTIVE: CrawlStatus[] = ['pending', 'running'];

export interface CrawlServiceDeps {
  credits: CreditsService;
  sharing: SharingService;
  notify: NotifyService;
  jobs: JobQueue;
  /** The fetcher; a getter so the engine can wire engine.web after construction. */
  fetcher: () => PageFetcher;
  enricher?: () => PageEnricher | undefined;
  /** The local search index; every stored page goes in, scoped to the crawl. */
  indexPages?: (pages: readonly IndexedPageRecord[]) => unknown;
  /** Reads crawled pages off the main thread (the engine's ParsePool). */
  reader?: RunnerDeps['reader'];
  /** The map's sitemap reading, for crawls with `sitemap: include`. */
  sitemapUrls?: RunnerDeps['sitemapUrls'];
}

/** Options only the engine's own callers (workflows, sessions, benchmarks) pass; not part of the HTTP body. */
export interface CrawlCreateOptions {
  /** breadth_first turns smart ordering off: the baseline smart crawl is measured against. */
  strategy?: 'smart' | 'breadth_first';
  /** A scheduled crawl waits until then (engine clock), or until /execute. */
  runAt?: Date;
  /** The session the crawl belongs to (sessions pass it after their own checks). */
  sessionId?: string;
  /** URLs never to fetch when discovered (a session's filter_seen_urls); seeds are always fetched. */
  skipUrls?: readonly string[];
  /** Aborts the crawl (as POST /v1/crawls/{id}/abort does) when it fires: fetched pages stay charged. */
  signal?: AbortSignal;
}

/** Crawl jobs: create (async, sync or webhook), read, list, cancel, abort, execute, share, estimate. */
export class CrawlService {
  private readonly runner: CrawlRunner;

  constructor(
    private readonly ctx: EngineContext,
    private readonly deps: CrawlServiceDeps,
  ) {
    this.runner = new CrawlRunner(ctx, {
      credits: deps.credits,
      fetcher: deps.fetcher,
      enricher: deps.enricher,
      indexPages: deps.indexPages,
      reader: deps.reader,
      sitemapUrls: deps.sitemapUrls,
      onFinished: (id) => this.announce(id),
    });
    deps.jobs.register<{ crawlId: string }>(CRAWL_JOB, (job) => this.runner.run(job.job.payload.crawlId, job), {
      leaseMs: 60_000,
      maxAttempts: 20,
      onFailed: (job) => this.runner.settleAbandoned((job.payload as { crawlId: string }).crawlId, job),
    });
  }

  /**
   * `POST /v1/crawls`. Reserves max_pages (without expansion: at most the seeds) x page price; a dry run only validates and estimates.
   * A body's session_id is bound by the operation layer (runOperation), which checks the session and passes `sessionId`;
   * here the crawl belongs to the session it is given, never to one named in the body unchecked.
   */
  async create(principal: Principal, body: unknown, options: CrawlCreateOptions = {}): Promise<CrawlDetail | CrawlDryRun> {
    const parsed = parseInput(CrawlBody, body);
    this.deps.notify.assertWebhookTarget(parsed.webhook_url);
    const input = this.prepare(parsed);
    const plan = this.plan(input);
    if (input.dry_run) {
      const estimate = await this.estimateFor(principal, plan);
      return { ...estimate, dry_run: true, configuration: input as unknown as Record<string, unknown> };
    }
    const id = this.ctx.random.uuid();
    const now = this.ctx.clock.now();
    const runAt = options.runAt ?? now;
    await this.ctx.store.atomically(async () => {
      const reservation = await this.deps.credits.reserve(principal.userId, plan.reserve, `crawl ${id}`);
      await this.ctx.store.crawl.insert({
        id,
        userId: principal.userId,
        status: 'pending',
        config: input as unknown as Record<string, unknown>,
        strategy: options.strategy ?? 'smart',
        maxDepth: plan.maxDepth,
        maxPages: plan.maxPages,
        maxCredits: input.budget_config?.max_credits ?? null,
        pricePerPage: plan.price.credits,
        reservationId: reservation.id,
        sessionId: options.sessionId ?? null,
        runAt: runAt.getTime(),
        createdAt: now.toISOString(),
      });
      // Seeds are fetched first whatever their priority, seen URLs never: no intent blend matters here.
      const frontier = this.ctx.store.crawl.frontier(id, false);
      await frontier.seed(input.urls);
      if (options.skipUrls) await frontier.markSeen(options.skipUrls);
      await this.deps.jobs.enqueue(CRAWL_JOB, { crawlId: id }, { id, runAt });
    });
    const onAbort = () => void Promise.resolve().then(() => this.abort(principal, id)).catch(() => undefined);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      if (input.processing_mode === 'sync') await this.deps.jobs.runNow(id);
    } finally {
      // An async crawl outlives the call: the caller aborts it with abort() or a signal on watch.
      options.signal?.removeEventListener('abort', onAbort);
    }
    return this.get(principal, id);
  }

  /** `POST /v1/crawls/estimate`: what create would reserve and whether the balance covers it. */
  async estimate(principal: Principal, body: unknown): Promise<CrawlEstimate> {
    const input = this.prepare(parseInput(CrawlEstimateBody, body));
    return this.estimateFor(principal, this.plan(input));
  }

  async list(principal: Principal, query: unknown = {}): Promise<CrawlList> {
    const q = parseInput(CrawlListQuery, query, 'query');
    const sharedIds = await this.deps.sharing.sharedWithMe(principal, 'crawl');
    const { rows, total } = await this.ctx.store.crawl.list({ userId: principal.userId, sharedIds, status: q.status, limit: q.limit, offset: q.offset });
    const data: CrawlJob[] = [];
    for (const r of rows) data.push(await this.job(await this.settled(r)));
    return { data, total, limit: q.limit, offset: q.offset };
  }

  /**
   * `GET /v1/crawls/{id}`: owner, org members it is shared with, or anyone when public. `documents`
   * (query) picks how much of the results come along: all (default), the top documents_limit by
   * importance, or none, for cheap polling.
   */
  async get(principal: Principal | null, id: string, query: unknown = {}): Promise<CrawlDetail> {
    const q = parseInput(CrawlGetQuery, query, 'query');
    const row = await this.row(id);
    const level = await this.deps.sharing.assertCanRead(principal, ref(row));
    return this.detail(row, level, q);
  }

  /**
   * `GET /v1/crawls/{id}/progress`: what a poller shows while a crawl runs, read as light as it can be: the stats and
   * the best pages so far by name and score, none of their text, markdown or links, and none of the job's
   * configuration or classifications. Its size does not grow with the pages'.
   */
  async progress(principal: Principal | null, id: string, query: unknown = {}): Promise<CrawlProgress> {
    const q = parseInput(CrawlProgressQuery, query, 'query');
    const row = await this.row(id);
    await this.deps.sharing.assertCanRead(principal, ref(row));
    const crawls = this.ctx.store.crawl;
    const { status, stats, error, started_at, completed_at } = await this.job(row);
    const best = q.best_pages > 0 ? await crawls.bestPages(row.id, q.best_pages) : [];
    return {
      id: row.id,
      status,
      stats,
      error,
      started_at,
      completed_at,
      documents_total: await crawls.documentCount(row.id),
      best_pages: best.map((d) => ({ url: d.url, final_url: d.finalUrl, title: d.title, status_code: d.statusCode, depth: d.depth, importance_score: d.importance })),
    };
  }

  /** `GET /v1/public/crawls/{id}`: only publicly shared crawls, without authentication. */
  async getPublic(id: string, query: unknown = {}): Promise<CrawlDetail> {
    const q = parseInput(CrawlGetQuery, query, 'query');
    const row = await this.row(id);
    await this.deps.sharing.assertPublic(ref(row));
    return this.detail(row, 'public', q);
  }

  /** `GET /v1/crawls/{id}/documents`: the documents a page at a time, in crawl order or by importance. */
  async documents(principal: Principal | null, id: string, query: unknown = {}): Promise<CrawlDocumentList> {
    const q = parseInput(CrawlDocumentsQuery, query, 'query');
    const row = await this.row(id);
    await this.deps.sharing.assertCanRead(principal, ref(row));
    const data = await this.documentRows(row.id, q.order, q.limit, q.offset);
    return { data, total: await this.ctx.store.crawl.documentCount(row.id), limit: q.limit, offset: q.offset };
  }

  /** `DELETE /v1/crawls/{id}`: a pending (scheduled) or running crawl ends cancelled, its reservation released. */
  cancel(principal: Principal, id: string): Promise<CrawlDetail> {
    return this.stop(principal, id);
  }

  /** `POST /v1/crawls/{id}/abort`: a running crawl stops now; pages already fetched stay charged. */
  abort(principal: Principal, id: string): Promise<CrawlDetail> {
    return this.stop(principal, id);
  }

  /** `POST /v1/crawls/{id}/execute`: a scheduled crawl becomes due now; the job queue starts it. */
  async execute(principal: Principal, id: string): Promise<CrawlDetail> {
    const row = await this.owned(principal, id);
    if (row.status !== 'pending') {
      throw errors.conflict('crawl_not_pending', `Crawl ${id} is ${row.status}; only a pending (scheduled) crawl can be executed.`, { details: { status: row.status } });
    }
    const now = this.ctx.clock.now().getTime();
    await this.ctx.store.crawl.transition(id, ['pending'], { runAt: now });
    if (!(await this.deps.jobs.reschedule(id, now)) && (await this.deps.jobs.get(id))?.status !== 'running') {
      await this.deps.jobs.enqueue(CRAWL_JOB, { crawlId: id }, { runAt: now });
    }
    return this.get(principal, id);
  }

  /** `POST /v1/crawls/{id}/share`. */
  async share(principal: Principal, id: string, body: unknown): Promise<CrawlDetail> {
    const row = await this.row(id);
    await this.deps.sharing.share(principal, ref(row), body);
    return this.get(principal, id);
  }

  /** Cancel and abort alike: a pending or running crawl ends cancelled, the unused reservation released. */
  private async stop(principal: Principal, id: string): Promise<CrawlDetail> {
    const row = await this.owned(principal, id);
    if (!ACTIVE.includes(row.status)) {
      throw errors.conflict('crawl_not_active', `Crawl ${id} is already ${row.status}.`, { details: { status: row.status } });
    }
    await this.ctx.store.atomically(async () => {
      // The reservation before the crawl's row, in the order a page's commit and the run's finish lock them:
      // the other way round, on PostgreSQL, a stop and the page being stored each waited for the other's row
      // and one was killed as a deadlock (an abort that did not stop the crawl). Releasing before knowing the
      // transition happened is safe: a crawl that already ended had its reservation closed in the transaction
      // that ended it, so the release finds nothing open and does nothing.
      if (row.reservationId) await this.deps.credits.release(row.reservationId);
      await this.ctx.store.crawl.transition(id, ACTIVE, { status: 'cancelled', completedAt: this.ctx.clock.now().toISOString() });
    });
    await this.deps.jobs.cancel(id);
    await this.announce(id);
    return this.get(principal, id);
  }

  /** Checks that need other capabilities (proxy tiers, classifiers) and the derived intent. */
  private prepare(input: CrawlInput): CrawlInput {
    assertTiersAvailable(this.ctx.options.proxies, input);
    this.deps.fetcher().assertRenderAvailable?.(input.render);
    const enricher = this.deps.enricher?.();
    const intent = input.intent ?? (input.auto_generate_intent && input.extraction_schema ? enricher?.intentFromSchema?.(input.extraction_schema) : undefined);
    enricher?.validateClassifiers?.(input.classifiers, { intent });
    // The configuration shows the expansion the crawl does: follow_links turns `none` into internal.
    const expansion = effectiveExpansion(input);
    return { ...input, expansion, ...(intent ? { intent } : {}) };
  }

  private plan(input: CrawlInput) {
    const price = pricing.crawlPage(input);
    const expanding = effectiveExpansion(input) !== 'none';
    // A crawl that cannot expand fetches its seeds and nothing else: that is all it reserves.
    const maxPages = Math.min(input.max_pages, input.budget_config?.max_pages ?? Infinity, expanding ? Infinity : new Set(input.urls).size);
    const depths = [input.link_extraction_config?.max_depth, input.budget_config?.max_depth].filter((d): d is number => d !== undefined);
    const maxDepth = !expanding ? 0 : depths.length > 0 ? Math.min(...depths) : defaultDepth(input.intent);
    const full = maxPages * price.credits;
    const reserve = Math.min(full, input.budget_config?.max_credits ?? full);
    return { price, maxPages, maxDepth, reserve, smart: expanding };
  }

  private async estimateFor(principal: Principal, plan: ReturnType<CrawlService['plan']>): Promise<CrawlEstimate> {
    const { would_succeed, credits_balance } = await this.deps.credits.canAfford(principal.userId, plan.reserve);
    return {
      cost_estimate: plan.reserve,
      would_succeed,
      credits_balance,
      price_per_page: plan.price.credits,
      pricing_tier: plan.price.pricing_tier,
      advanced_features: plan.price.advanced_features,
      max_pages: plan.maxPages,
      max_depth: plan.maxDepth,
      smart_crawl: plan.smart,
    };
  }

  /** Completion event for webhook mode, sent through the signed outbox. */
  private async announce(id: string): Promise<void> {
    const row = await this.row(id);
    const config = row.config as unknown as CrawlInput;
    if (config.processing_mode !== 'webhook' || !config.webhook_url) return;
    await this.deps.notify.emit({
      userId: row.userId,
      kind: 'crawl.completed',
      webhookUrl: config.webhook_url,
      data: { crawl_id: row.id, status: row.status, stats: (await this.job(row)).stats, completed_at: row.completedAt },
    });
  }

  private async detail(row: Row, level: CrawlDetail['access_level'], q: CrawlGetInput): Promise<CrawlDetail> {
    const crawls = this.ctx.store.crawl;
    const docs =
      q.documents === 'none' ? [] : q.documents === 'top' ? await this.documentRows(row.id, 'importance', q.documents_limit, 0) : await this.documentRows(row.id, 'crawl');
    // Classifications are small and always complete, whatever part of the documents came along.
    const classified = await crawls.classifications(row.id);
    const job = await this.job(row);
    const isPublic = level === 'public';
    return {
      ...job,
      ...(isPublic ? { configuration: withoutOwnerFields(job.configuration), session_id: null } : {}),
      documents: docs,
      documents_total: await crawls.documentCount(row.id),
      classifications: classified.map((d) => ({ url: d.url, ...d.classification })),
      summary: row.summary,
      access_level: level,
      sharing: isPublic ? PUBLIC_SHARE_STATE : await this.deps.sharing.state('crawl', row.id),
      smart_crawl: (row.smartCrawl as CrawlDetail['smart_crawl']) ?? null,
      // The spec's credits info, as other operations carry it; a balance is the owner's business only.
      ...(level === 'owner' ? { credits: await this.creditsInfo(row) } : {}),
    };
  }

  private async creditsInfo(row: Row): Promise<NonNullable<CrawlDetail['credits']>> {
    const price = pricing.crawlPage(row.config as unknown as CrawlInput);
    return { consumed: row.creditsUsed, balance_after: await this.deps.credits.balance(row.userId), pricing_tier: price.pricing_tier, advanced_features: price.advanced_features };
  }

  /** Crawl order is discovery order; importance ties fall back to it, so pages never overlap. */
  private async documentRows(crawlId: string, order: DocumentOrder, limit?: number, offset = 0): Promise<CrawlDocument[]> {
    return (await this.ctx.store.crawl.documents(crawlId, { order, limit, offset })).map(toDocument);
  }

  /** The job view, with the frontier's pending count (an indexed count) while the crawl is live. */
  private async job(row: Row): Promise<CrawlJob> {
    const live = row.status === 'pending' || row.status === 'running';
    return toJob(row, live ? await this.ctx.store.crawl.queuedCount(row.id) : 0);
  }

  private async row(id: string): Promise<Row> {
    const row = await this.ctx.store.crawl.get(id);
    if (!row) throw errors.notFound('crawl', id);
    return this.settled(row);
  }

  /** A crawl whose job failed for good or vanished is shown (and recorded) as failed, never stuck running. */
  private async settled(row: Row): Promise<Row> {
    if (row.status !== 'pending' && row.status !== 'running') return row;
    if (!(await this.runner.settleAbandoned(row.id, await this.ctx.store.jobs.get(row.id)))) return row;
    return (await this.ctx.store.crawl.get(row.id))!;
  }

  /** Mutations are the owner's; anyone else is told the crawl does not exist. */
  private async owned(principal: Principal, id: string): Promise<Row> {
    const row = await this.row(id);
    await this.deps.sharing.assertOwner(principal, ref(row));
    return row;
  }
}

const ref = (row: Row): ResourceRef => ({ type: 'crawl', id: row.id, ownerUserId: row.userId });

function toJob(row: Row, pagesQueued: number): CrawlJob {
  const price = pricing.crawlPage(row.config as unknown as CrawlInput);
  return {
    id: row.id,
    status: row.status,
    configuration: row.config,
    stats: {
      pages_crawled: row.pagesFetched,
      pages_failed: row.pagesFailed,
      last_failure: row.lastFailure,
      pages_skipped: row.pagesSkipped,
      pages_filtered: row.pagesFiltered,
      pages_cached: row.pagesCached,
      pages_queued: pagesQueued,
      max_pages: row.maxPages,
      max_depth: row.maxDepth,
      credits_used: row.creditsUsed,
      credits_reserved: row.status === 'pending' || row.status === 'running' ? Math.min(row.maxPages * row.pricePerPage, row.maxCredits ?? Infinity) : 0,
      pricing_tier: price.pricing_tier,
      advanced_features: price.advanced_features,
    },
    session_id: row.sessionId,
    error: row.error,
    scheduled_for: new Date(row.runAt).toISOString(),
    created_at: row.createdAt,
    started_at: row.startedAt,
    completed_at: row.completedAt,
  };
}

function toDocument(d: CrawlDocumentRecord): CrawlDocument {
  const extraction = d.extractedData as { extracted_data?: Record<string, unknown>; extraction_metadata?: Record<string, unknown> } | null;
  return {
    url: d.url,
    final_url: d.finalUrl,
    status_code: d.statusCode,
    content_type: d.contentType,
    depth: d.depth,
    title: d.title,
    description: d.description,
    language: d.language,
    published_date: d.publishedDate,
    text: d.text,
    markdown: d.markdown,
    links: d.links,
    metadata: d.metadata,
    ...(extraction?.extracted_data ? { extracted_data: extraction.extracted_data, extraction_metadata: extraction.extraction_metadata ?? {} } : {}),
    classification: d.classification ?? null,
    summary: d.summary,
    from_cache: d.fromCache,
    credits: d.credits,
    importance_score: d.importance,
    inlink_count: d.inlinks,
    outlink_count: d.outlinks,
    hub_score: d.hubScore,
    authority_score: d.authorityScore,
    anchor_texts: d.anchors,
    fetched_at: d.fetchedAt,
  };
}
