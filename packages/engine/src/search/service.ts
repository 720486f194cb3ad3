import type { EngineContext } from '../context.js';
import { errors } from '../core/errors.js';
import { PublicShareBody } from '../core/schemas.js';
import { parseInput } from '../core/validate.js';
import type { Principal } from '../accounts/schemas.js';
import type { AccountsService } from '../accounts/service.js';
import type { SharingService } from '../accounts/sharing.js';
import type { CreditsService } from '../credits/service.js';
import type { CreditsInfo } from '../credits/schemas.js';
import { pricing } from '../credits/pricing.js';
import type { NotifyService } from '../notify/service.js';
import type { JobQueue } from '../jobs/queue.js';
import type { FetchRequest, FetchedPage } from '../web/types.js';
import { parseHtml } from '../html/index.js';
import { indexEntry } from './index-entry.js';
import { INTENT_EFFECTS, type IntentType } from './intent.js';
import { LocalIndex, type IndexedPage, type Visibility } from './local-index.js';
import { localProvider } from './providers/local.js';
import { searxngProvider } from './providers/searxng.js';
import type { ProviderHit, SearchProvider } from './providers/types.js';
import { rerank } from './rerank.js';
import { classifySource, isAuthority, type ResultType } from './source-type.js';
import { suggestQueries } from './suggestions.js';
import { summarize } from './summary.js';
import type { SearchJobRecord } from '../store/ports/search.js';
import { domainOf } from './text.js';
import {
  QuickSearchBody,
  SearchBody,
  SearchJobListQuery,
  type FullSearchResult,
  type QuickSearchResponse,
  type SearchDryRun,
  type SearchJob,
  type SearchJobList,
  type SearchOverview,
  SearchRunBody,
  type SearchRun,
  type SearchRunInput,
  type SearchSessionContext,
} from './schemas.js';

/** Fetches pages into the index; `engine.web` satisfies it. */
export interface PageFetcher {
  fetch(request: FetchRequest): Promise<FetchedPage>;
}

export interface SearchDeps {
  accounts: AccountsService;
  credits: CreditsService;
  sharing: SharingService;
  notify: NotifyService;
  jobs: JobQueue;
  fetcher?: PageFetcher;
}

type JobRow = SearchJobRecord;

/** Async and webhook searches run on the engine's job queue under this kind. */
const JOB_KIND = 'search.run';

/**
 * Candidates read per requested result when filters or reranking will drop or reorder some, so
 * they have something to choose from. A plain search reads only what it returns: a web provider
 * pays for every page of results (SearXNG answers ten a request).
 */
const OVERFETCH = 3;

/**
 * `engine.search`: quick and full search over the configured provider, search jobs, and the
 * local index every fetched page goes into (`index`).
 */
export class SearchService {
  readonly index: LocalIndex;
  readonly providers: ReadonlyMap<string, SearchProvider>;
  readonly defaultProvider: string;

  constructor(
    private readonly ctx: EngineContext,
    private readonly deps: SearchDeps,
  ) {
    this.index = new LocalIndex(ctx.store.searchIndex);
    const providers = new Map<string, SearchProvider>([['local', localProvider(this.index, (p) => this.visibility(p))]]);
    const searxngUrl = ctx.options.searxngUrl;
    if (searxngUrl) providers.set('searxng', searxngProvider(searxngUrl, ctx.options.userAgent));
    this.providers = providers;
    // A named provider that is not configured stays selected: searches explain it instead of quietly using another.
    this.defaultProvider = ctx.options.searchProvider;
    deps.jobs.register<{ searchJobId: string }>(JOB_KIND, ({ job }) => this.execute(job.payload.searchJobId), { maxAttempts: 3 });
  }

  /** What the caller may see: the public cache, their own pages, crawls shared with their organizations. */
  async visibility(principal: Principal): Promise<Visibility> {
    return { userId: principal.userId, sharedCrawlIds: await this.deps.sharing.sharedWithMe(principal, 'crawl') };
  }

  /** A page's full indexed text if the caller may see it (own, shared crawl, public cache); no fetch. */
  async pageText(principal: Principal, url: string): Promise<IndexedPage | null> {
    return this.index.page(url, await this.visibility(principal));
  }

  /** `POST /v1/search/quick`: synchronous, 1 credit, charged up front and refunded when the provider fails. */
  async quick(principal: Principal, body: unknown): Promise<QuickSearchResponse> {
    const input = parseInput(QuickSearchBody, body);
    const price = pricing.quickSearch();
    const provider = await this.searchable(principal);
    const credits = await this.deps.credits.charge(principal.userId, price, 'search.quick');
    try {
      const hits = await provider.search({
        query: input.query,
        maxResults: input.max_results,
        principal,
        includeDomains: input.include_domains,
        excludeDomains: input.exclude_domains,
      });
      const results = hits.map((h) => ({
        title: h.title,
        url: h.url,
        description: h.description,
        published_date: h.publishedDate,
        relevance_score: h.relevanceScore,
      }));
      return { query: input.query, provider: provider.name, results, total: results.length, credits };
    } catch (error) {
      await this.refund(principal.userId, credits, 'quick search failed');
      throw error;
    }
  }

  /**
   * One search with every option (source_type, domains, rerank_results, generate_suggestions,
   * generate_summary, a session's context), neither charged nor recorded as a job: for callers
   * that price the work themselves (workflow patrols). `search()` runs the same code.
   */
  async run(principal: Principal, body: unknown, session?: SearchSessionContext): Promise<SearchRun> {
    const input = parseInput(SearchRunBody, body);
    const outcome = await this.runSearch(principal, input, session);
    return { provider: this.provider().name, results: outcome.results, suggested_queries: outcome.suggestedQueries, summary: outcome.summary };
  }

  /**
   * `POST /v1/search`: prices, charges and records a search job, then runs it now (sync) or
   * in the background (async, webhook). A session passes its context as the third argument; a
   * body's session_id is bound by the operation layer (runOperation), never taken here unchecked.
   */
  async search(principal: Principal, body: unknown, session?: SearchSessionContext): Promise<SearchJob | SearchDryRun> {
    const input = parseInput(SearchBody, body);
    this.deps.notify.assertWebhookTarget(input.webhook_url);
    const price = pricing.fullSearch(input);
    if (input.dry_run) {
      const { would_succeed, credits_balance } = await this.deps.credits.canAfford(principal.userId, price.credits);
      return {
        dry_run: true,
        query: input.query,
        credits: { would_consume: price.credits, pricing_tier: price.pricing_tier, advanced_features: price.advanced_features },
        would_succeed,
        credits_balance,
      };
    }
    // A session's search is one step of its research, which may begin before anything is indexed.
    if (!session) await this.searchable(principal);
    const credits = await this.deps.credits.charge(principal.userId, price, 'search');
    const id = this.ctx.random.uuid();
    await this.ctx.store.searchJobs.insert({
      id,
      userId: principal.userId,
      status: 'pending',
      query: input.query,
      request: { ...input, session_id: session?.sessionId },
      sessionContext: session ?? null,
      provider: this.provider().name,
      results: null,
      suggestedQueries: null,
      summary: null,
      credits,
      error: null,
      createdAt: this.now(),
      startedAt: null,
      completedAt: null,
    });
    if (input.processing_mode === 'sync') await this.execute(id);
    else await this.deps.jobs.enqueue(JOB_KIND, { searchJobId: id }, { id });
    return this.view((await this.row(id))!);
  }

  /** `GET /v1/search/jobs`. */
  async list(principal: Principal, query: unknown = {}): Promise<SearchJobList> {
    const q = parseInput(SearchJobListQuery, query, 'query');
    const { rows, total } = await this.ctx.store.searchJobs.list(principal.userId, q.status, q);
    return { data: await Promise.all(rows.map((r) => this.view(r))), total, limit: q.limit, offset: q.offset };
  }

  /** `GET /v1/search/jobs/{id}`: the owner's, or one shared with the caller; otherwise 404. */
  async get(principal: Principal | null, id: string): Promise<SearchJob> {
    const row = await this.row(id);
    if (!row) throw errors.notFound('search_job', id);
    const level = await this.deps.sharing.assertCanRead(principal, { type: 'search_job', id, ownerUserId: row.userId });
    const view = await this.view(row);
    // A public reader sees what public sessions show: not which session of the owner's it ran in.
    return level === 'public' ? { ...view, session_id: null } : view;
  }

  /** `DELETE /v1/search/jobs/{id}`: removes it from the history (owner only). */
  async remove(principal: Principal, id: string): Promise<SearchJob> {
    const row = await this.owned(principal, id);
    const view = await this.view(row);
    await this.ctx.store.searchJobs.delete(id);
    await this.deps.sharing.forget('search_job', id);
    return view;
  }

  /** `POST /v1/search/jobs/{id}/share`. */
  async share(principal: Principal, id: string, body: unknown): Promise<{ id: string; public_share: boolean }> {
    const input = parseInput(PublicShareBody, body);
    const row = await this.owned(principal, id);
    const state = await this.deps.sharing.share(principal, { type: 'search_job', id, ownerUserId: row.userId }, input);
    return { id, public_share: state.public_share };
  }

  /** `GET /v1/search`: providers, features and the caller's statistics. */
  async overview(principal: Principal): Promise<SearchOverview> {
    const byStatus = await this.ctx.store.searchJobs.countByStatus(principal.userId);
    const counts = await this.index.counts(principal.userId);
    return {
      providers: [...this.providers.values()].map((p) => ({
        name: p.name,
        kind: p.kind,
        default: p.name === this.defaultProvider,
        description: p.kind === 'index' ? 'SQLite FTS5 index of fetched pages you may see (BM25, weighted fields)' : 'SearXNG JSON API',
      })),
      features: ['quick_search', 'full_search', 'rerank_results', 'generate_suggestions', 'generate_summary', 'source_type', 'processing_mode', 'dry_run', 'session_context', 'search_jobs', 'public_share'],
      source_types: ['academic', 'commercial', 'news', 'community', 'mixed'],
      statistics: {
        searches_total: Object.values(byStatus).reduce((sum, n) => sum + n, 0),
        searches_by_status: byStatus,
        indexed_pages_own: counts.own_pages,
        indexed_pages_public: counts.public_pages,
      },
    };
  }

  /**
   * Fetches web results into the public cache so later local searches find them; failed
   * fetches are skipped. Returns the URLs indexed.
   */
  async fetchIntoIndex(urls: string[], owner: { ownerUserId: string | null } = { ownerUserId: null }): Promise<string[]> {
    const fetcher = this.deps.fetcher;
    if (!fetcher) throw errors.conflict('fetcher_unavailable', 'This engine has no page fetcher to fetch search results with.');
    const indexed: string[] = [];
    for (const url of urls) {
      const page = await fetcher.fetch({ url, useCache: true });
      if (page.error || page.kind !== 'html' || page.body === null || page.status >= 400) continue;
      const parsed = parseHtml(page.body, page.url);
      if (parsed.robots.noindex) continue;
      const entry = indexEntry(parsed, { url: page.url, ownerUserId: owner.ownerUserId, fetchedAt: page.fetchedAt });
      if (!entry) continue;
      await this.index.put([entry]);
      indexed.push(page.url);
    }
    return indexed;
  }

  /** Runs one job to completed or failed; a failed job gives its credits back. */
  private async execute(id: string): Promise<void> {
    const row = await this.row(id);
    if (!row || row.status === 'completed' || row.status === 'failed') return;
    await this.ctx.store.searchJobs.update(id, { status: 'running', startedAt: this.now() });
    const input = parseInput(SearchBody, row.request);
    try {
      const outcome = await this.runSearch(await this.principalOf(row.userId), input, row.sessionContext ?? undefined);
      await this.ctx.store.searchJobs.update(id, { status: 'completed', completedAt: this.now(), ...outcome });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await this.ctx.store.searchJobs.update(id, { status: 'failed', completedAt: this.now(), error: message });
      await this.refund(row.userId, row.credits, `search ${id} failed`);
    }
    const done = await this.row(id);
    if (done && input.processing_mode === 'webhook' && input.webhook_url) {
      await this.deps.notify.emit({ userId: done.userId, kind: 'search.completed', webhookUrl: input.webhook_url, data: await this.view(done) });
    }
  }

  private async runSearch(principal: Principal, input: SearchRunInput, session: SearchSessionContext | undefined) {
    const effect = session?.intentType ? INTENT_EFFECTS[session.intentType as IntentType] : undefined;
    const narrows =
      input.rerank_results ||
      (input.source_type !== undefined && input.source_type !== 'mixed') ||
      (session?.filterSeenUrls === true && (session.seenUrls?.length ?? 0) > 0) ||
      (input.include_domains?.length ?? 0) > 0 ||
      (input.exclude_domains?.length ?? 0) > 0;
    const hits = await this.provider().search({
      query: input.query,
      maxResults: narrows ? Math.min(60, input.max_results * OVERFETCH) : input.max_results,
      principal,
      optionalTerms: effect?.queryAdditions,
      includeDomains: input.include_domains,
      excludeDomains: input.exclude_domains,
    });
    const seen = new Set(session?.seenUrls ?? []);
    const wanted: ResultType | undefined = input.source_type && input.source_type !== 'mixed' ? input.source_type : effect?.preferredType;
    const typed = hits
      .filter((h) => !(session?.filterSeenUrls && seen.has(h.url)))
      .map((h) => ({ ...h, type: classifySource(h) }))
      .filter((h) => !input.source_type || input.source_type === 'mixed' || h.type === input.source_type);
    const ranked = input.rerank_results
      ? rerank(
          typed.map((h) => ({
            ...h,
            authority: isAuthority(h.domain, wanted),
            typeMatch: wanted !== undefined && h.type === wanted,
            intentBoost: effect?.boosts(h) ?? false,
          })),
          domainCounts(session?.seenUrls ?? []),
        ).map((r) => ({ ...r.item, relevanceScore: Math.round(r.score * 10_000) / 10_000 }))
      : typed;
    const results: FullSearchResult[] = ranked.slice(0, input.max_results).map(toResult);
    return {
      results,
      suggestedQueries: input.generate_suggestions ? suggestQueries(input.query, results) : [],
      summary: input.generate_summary ? summarize(input.query, results) : null,
    };
  }

  private async view(row: JobRow): Promise<SearchJob> {
    const req = parseInput(SearchBody, row.request);
    const results = row.results ?? [];
    const duration = row.startedAt && row.completedAt ? Date.parse(row.completedAt) - Date.parse(row.startedAt) : null;
    return {
      id: row.id,
      status: row.status,
      query: row.query,
      provider: row.provider,
      results,
      total_results: results.length,
      suggested_queries: row.suggestedQueries ?? [],
      summary: row.summary ?? null,
      options: {
        max_results: req.max_results,
        rerank_results: req.rerank_results,
        generate_suggestions: req.generate_suggestions,
        generate_summary: req.generate_summary,
        source_type: req.source_type ?? null,
        processing_mode: req.processing_mode,
      },
      session_id: req.session_id ?? null,
      public_share: (await this.deps.sharing.state('search_job', row.id)).public_share,
      error: row.error,
      credits: row.credits,
      timing: { created_at: row.createdAt, started_at: row.startedAt, completed_at: row.completedAt, duration_ms: duration },
    };
  }

  private async owned(principal: Principal, id: string): Promise<JobRow> {
    const row = await this.row(id);
    if (!row || row.userId !== principal.userId) throw errors.notFound('search_job', id);
    return row;
  }

  private row(id: string): Promise<JobRow | undefined> {
    return this.ctx.store.searchJobs.get(id);
  }

  /**
   * The provider a charged search will use, checked before charging: an unconfigured provider or
   * a local index with nothing the caller may see is explained, and costs nothing.
   */
  private async searchable(principal: Principal): Promise<SearchProvider> {
    const provider = this.provider();
    if (provider.name === 'local') await this.assertIndexHolds(principal);
    return provider;
  }

  /** Throws `search_index_empty` when the local index holds no page the caller may see. */
  async assertIndexHolds(principal: Principal): Promise<void> {
    const { own_pages, public_pages } = await this.index.counts(principal.userId);
    if (own_pages + public_pages === 0 && (await this.visibility(principal)).sharedCrawlIds.length === 0) {
      throw errors.conflict('search_index_empty', 'The local search index is empty: it holds the pages crawls have fetched, and none has run yet.', {
        suggestions: ['Crawl some pages first; every fetched page goes into the local index.', 'Or search the web through a SearXNG instance: set WVR_SEARXNG_URL.'],
      });
    }
  }

  private provider(): SearchProvider {
    const provider = this.providers.get(this.defaultProvider);
    if (!provider) {
      throw errors.conflict('search_provider_unset', `Searches use the "${this.defaultProvider}" provider (WVR_SEARCH_PROVIDER), which is not configured.`, {
        suggestions: ['Set WVR_SEARXNG_URL to the SearXNG instance.', 'Or unset WVR_SEARCH_PROVIDER to search the local index.'],
      });
    }
    return provider;
  }

  /** Background jobs act for their owner with the search scope only. */
  private async principalOf(userId: string): Promise<Principal> {
    const user = await this.deps.accounts.getUser(userId);
    return { userId: user.id, email: user.email, plan: user.plan, tokenId: 'search-job', scopes: ['search'] };
  }

  private async refund(userId: string, credits: CreditsInfo, note: string): Promise<void> {
    if (credits.consumed > 0) await this.deps.credits.refund(userId, credits.consumed, note);
  }

  private now(): string {
    return this.ctx.clock.now().toISOString();
  }
}

function toResult(h: ProviderHit & { type: ResultType | 'mixed' }): FullSearchResult {
  return {
    title: h.title,
    url: h.url,
    description: h.description,
    published_date: h.publishedDate,
    relevance_score: h.relevanceScore,
    source_type: h.type,
  };
}

function domainCounts(urls: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const u of urls) {
    const d = domainOf(u);
    if (d) counts.set(d, (counts.get(d) ?? 0) + 1);
  }
  return counts;
}
