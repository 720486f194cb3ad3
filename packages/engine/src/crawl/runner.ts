import { createHash } from 'node:crypto';
import type { EngineContext } from '../context.js';
import { MAX_URL_LENGTH } from '../core/schemas.js';
import { storageProblem } from '../core/storage.js';
import type { CreditsService } from '../credits/service.js';
import { pricing } from '../credits/pricing.js';
import { normalizeUrl, parseHtml, type LinkRegion, type ParsePool, type ParsedPage, type ReadOptions } from '../html/index.js';
import type { JobContext } from '../jobs/index.js';
import type { FetchedPage, PageFetcher, ProxyTier } from '../web/types.js';
import type { CrawlPort, CrawlRecord, Discovered, DocumentScores, FrontierPort, FrontierRow, RunState } from '../store/ports/crawl.js';
import { nextBucket, REGION_WEIGHTS, round, strongerRegion, type Bucket } from './graph.js';
import { GraphScores, LinkGraph } from './graph-scores.js';
import { IntentScorer } from './relevance.js';
import { domainOf, inScope, junkReason, looksLikeHub, patternFilter, siteOf, type ExpansionMode, type PatternFilter } from './url-rules.js';
import { startTier } from '../web/tiers.js';
import type { PageEnricher, PageEnrichment } from '../extract/enrichment.js';
import { summarizeCrawl } from '../extract/summary.js';
import { smartCrawlReport, type SmartCrawlReport } from './smart-report.js';
import type { CrawlInput } from './schemas.js';
import { indexEntry } from '../search/index-entry.js';
import type { IndexedPageRecord } from '../store/ports/search.js';

/** Fetches one crawl keeps in flight: the fetcher's per-host concurrency times the seed sites, within these bounds (politeness per host stays the fetcher's). */
const MIN_IN_FLIGHT = 4;
const MAX_IN_FLIGHT = 64;
/** HITS is recomputed over the discovered graph after this many pages ... */
const HITS_EVERY = 25;
/** ... and then whenever this share of the pages processed so far came on top. */
const HITS_GROWTH = 0.25;
/** The job heartbeat runs after this many pages or this much engine time, whichever comes first. */
const HEARTBEAT_PAGES = 16;
const HEARTBEAT_MS = 1_000;
/** Pages stored per transaction: a short hold of the write lock and of the event loop. */
const COMMIT_SLICE = 8;
/** Entries of the smart_crawl block's top lists. */
const REPORT_TOP = 10;
/** A detail candidate needs this much intent relevance; below it, it is exploration. */
const DETAIL_RELEVANCE = 0.15;
/**
 * Topical locality, as the shark-search crawler has it: a link in the content of a page about the intent most likely
 * leads to more of it, whatever its own words say ("26.5. Hot Standby" in the replication chapter). Such a link is at
 * least this share of its page's relevance (the page judged by its title and top headings, as a link by its anchor).
 */
const INHERITED_RELEVANCE = 0.25;
/** Without a page summary, this much of its text stands in for it in the crawl summary. */
const SUMMARY_FALLBACK_CHARS = 600;

export interface RunnerDeps {
  credits: CreditsService;
  fetcher: () => PageFetcher;
  enricher?: () => PageEnricher | undefined;
  /** The local search index: a transaction's stored pages, all in one call at its end. */
  indexPages?: (pages: readonly IndexedPageRecord[]) => unknown;
  /** Reads pages off the main thread when there is a spare core; without it, pages are read in place. */
  reader?: Pick<ParsePool, 'parse' | 'hold'>;
  /** Called once when a crawl reaches a terminal state. */
  onFinished: (crawlId: string) => Promise<void>;
  /** The URLs a site's sitemaps list (the map's reading), for crawls with `sitemap: include`. */
  sitemapUrls?: (site: string, options: { limit: number; urlPatterns?: readonly string[] | undefined; excludePatterns?: readonly string[] | undefined; signal: AbortSignal }) => Promise<string[]>;
}

export function effectiveExpansion(config: Pick<CrawlInput, 'expansion' | 'follow_links' | 'sitemap'>): ExpansionMode {
  // Crawls stored before the sitemap field existed have none.
  return config.expansion === 'none' && (config.follow_links || config.sitemap === 'include') ? 'internal' : config.expansion;
}

/**
 * Runs one crawl from wherever its frontier stands (seeded when the crawl was created): a
 * resumed run (restart, lease taken over) first requeues what was in flight. A page is stored, charged and
 * expanded in the same transaction (shared with the pages that arrived with it), so a crash never charges a
 * page twice or loses its links.
 */
export class CrawlRunner {
  constructor(
    private readonly ctx: EngineContext,
    private readonly deps: RunnerDeps,
  ) {}

  /**
   * Ends a crawl whose job the queue gave up (its last attempt threw, or its workers died past the
   * attempt limit): failed, with its reservation released. The queue's onFailed calls it at once;
   * reads call it too, for a failure recorded by a process that died before its hook ran.
   */
  async settleAbandoned(crawlId: string, job: { status: string; lastError: string | null } | undefined): Promise<boolean> {
    if (job?.status !== 'failed') return false;
    return this.fail(crawlId, `The crawl job failed after its last attempt: ${job.lastError ?? 'no error recorded'}.`);
  }

  /** One attempt; a throw is the queue's to retry, and its onFailed ends the crawl after the last one. */
  async run(crawlId: string, job: JobContext): Promise<unknown> {
    const crawls = this.ctx.store.crawl;
    const crawl = await crawls.get(crawlId);
    if (!crawl || crawl.status === 'completed' || crawl.status === 'cancelled' || crawl.status === 'failed') return { skipped: true };
    const config = crawl.config as unknown as CrawlInput;
    const run = new CrawlRun(this.ctx, this.deps, crawl, config, job);
    await crawls.transition(crawlId, [crawl.status], { status: 'running', startedAt: crawl.startedAt ?? this.ctx.clock.now().toISOString() });
    const letReadersGo = this.deps.reader?.hold();
    try {
      await run.execute();
    } catch (error) {
      // A busy database or a full disk is the queue's to retry later; the crawl stays running and resumes.
      if (job.signal.aborted || storageProblem(error)) throw error;
      await this.fail(crawlId, error instanceof Error ? error.message : String(error));
      return { failed: true };
    } finally {
      letReadersGo?.();
    }
    if (job.signal.aborted || (await crawls.get(crawlId))?.status !== 'running') return { stopped: true };
    await run.finish();
    await this.deps.onFinished(crawlId);
    return { completed: true };
  }

  /** pending or running -> failed, the unused reservation released once; false when it had already ended. */
  private async fail(crawlId: string, message: string): Promise<boolean> {
    const crawls = this.ctx.store.crawl;
    const ended = await this.ctx.store.atomically(async () => {
      const crawl = await crawls.get(crawlId);
      if (!crawl || (crawl.status !== 'running' && crawl.status !== 'pending')) return false;
      // Reservation first, then the crawl's row: the lock order of every transaction that ends a crawl (see CrawlService.stop).
      if (crawl.reservationId) await this.deps.credits.release(crawl.reservationId);
      return crawls.transition(crawlId, ['running', 'pending'], { status: 'failed', error: message, completedAt: this.ctx.clock.now().toISOString() });
    });
    if (ended) await this.deps.onFinished(crawlId);
    return ended;
  }
}

/**
 * A fetch that settled, waiting for the processing step. A page read off the main thread starts
 * reading as it arrives (`reading`), so the reader works while the main thread stores the pages
 * before it.
 */
type Arrival = { row: FrontierRow; page: FetchedPage; reading?: Promise<ParsedPage> } | { row: FrontierRow; error: unknown };
type Outcome = 'stored' | 'failed' | 'duplicate' | 'filtered' | 'budget_exhausted' | 'stopped';
/** A page parsed and enriched, ready for its transaction; or a failed fetch to record. */
type Prepared =
  | { row: FrontierRow; page: FetchedPage; failure: string }
  | { row: FrontierRow; page: FetchedPage; parsed: ParsedPage | null; finalUrl: string; canonical: string | null; enrichment: PageEnrichment };

class CrawlRun {
  private readonly crawls: CrawlPort;
  private readonly frontier: FrontierPort;
  private readonly scorer: IntentScorer;
  private readonly expansion: ExpansionMode;
  private readonly seedSites: Set<string>;
  private readonly patterns: PatternFilter;
  private readonly smart: boolean;
  private readonly tier: ProxyTier;
  private readonly inFlightLimit: number;
  private readonly fetcher: PageFetcher;
  /**
   * Whether the pages' copies for the global cache are written in the transactions that store the pages, not by each
   * fetch in a commit of its own. On SQLite, its one writer's commits are the cost: a crawl made twice the commits its
   * pages needed, each rewriting the cache's index. On PostgreSQL each copy is a round trip, and outside the page's
   * transaction it runs on another connection meanwhile: inside, a fleet of 4 workers stored 3-4 % fewer pages a
   * second (docs/benchmarks.md).
   */
  private readonly cachesWithPages: boolean;
  /** Links' context words are read only for an intent's scorer: nothing else looks at them. */
  private readonly readOptions: ReadOptions;
  /** Smart crawl: pages fetched or in flight per bucket, the 30/60/10 split's running tally. */
  private readonly fetched: Record<Bucket, number> = { hub: 0, detail: 0, explore: 0 };
  private links: LinkGraph | undefined;
  /** Bodies stored by this crawl, by fingerprint: a byte-identical page under another URL is a duplicate. Loaded when the run starts. */
  private fingerprints = new Set<string>();
  private sinceHits = 0;
  private processed = 0;
  private sinceHeartbeat = 0;
  private lastHeartbeat = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly ctx: EngineContext,
    private readonly deps: RunnerDeps,
    private readonly crawl: CrawlRecord,
    private readonly config: CrawlInput,
    private readonly job: JobContext,
  ) {
    this.expansion = effectiveExpansion(config);
    this.fetcher = deps.fetcher();
    this.cachesWithPages = this.fetcher.remember !== undefined && ctx.store.dialect === 'sqlite';
    this.smart = crawl.strategy === 'smart' && this.expansion !== 'none';
    this.scorer = new IntentScorer(config.intent);
    this.readOptions = { linkContext: this.scorer.active };
    this.crawls = ctx.store.crawl;
    this.frontier = this.crawls.frontier(crawl.id, this.scorer.active);
    this.seedSites = new Set(config.urls.map(siteOf));
    this.patterns = patternFilter(config.link_extraction_config?.url_patterns, config.link_extraction_config?.exclude_patterns);
    this.tier = startTier(config);
    const perSite = ctx.options.fetchLimits.perHostConcurrency * this.seedSites.size;
    this.inFlightLimit = Math.min(MAX_IN_FLIGHT, Math.max(MIN_IN_FLIGHT, perSite));
  }

  /**
   * A pipeline: up to inFlightLimit fetches stay in flight while the pages that arrived meanwhile
   * are read and stored, so the network, the reader thread and the main thread all work at once. A
   * batch of URLs is claimed ahead (`ready`), so a fetch that settles hands its slot to the next URL
   * at once, not after the group being stored. The pages that arrived together are stored, charged
   * and expanded in one transaction (one commit instead of one per page).
   */
  async execute(): Promise<void> {
    await this.frontier.requeueInFlight();
    this.fingerprints = new Set(await this.crawls.fingerprints(this.crawl.id));
    if (this.config.sitemap === 'include') await this.seedFromSitemaps();
    if (this.smart) {
      const counts = await this.frontier.countsByBucket(['done']);
      this.fetched.hub = counts.hub;
      this.fetched.detail = counts.detail;
      this.fetched.explore = counts.explore;
    }
    const arrivals: Arrival[] = [];
    const inFlight = new Set<FrontierRow>();
    /** Claimed, waiting for a fetch slot; at most inFlightLimit, so the crawl's order stays close to the frontier's. */
    const ready: FrontierRow[] = [];
    let stopping = false;
    let wake: (() => void) | undefined;
    const launchReady = () => {
      while (!stopping && ready.length > 0 && inFlight.size < this.inFlightLimit) launch(ready.shift()!);
    };
    const launch = (row: FrontierRow) => {
      inFlight.add(row);
      this.fetcher
        .fetch({
          url: row.url,
          tier: this.tier,
          retryStrategy: this.config.retry_strategy,
          useCache: this.config.use_cache,
          cacheMaxAge: this.config.cache_max_age,
          // Crawls stored before the render field existed keep the behaviour they were created with.
          render: this.config.render ?? 'never',
          storeInCache: !this.cachesWithPages,
          signal: this.job.signal,
        })
        .then(
          (page) => arrivals.push({ row, page, reading: this.readAhead(page) }),
          (error: unknown) => arrivals.push({ row, error }),
        )
        .finally(() => {
          inFlight.delete(row);
          if (!this.job.signal.aborted) launchReady();
          wake?.();
        });
    };
    /** Lets every fetch still in flight settle, then hands its URL, and the URLs claimed ahead, back to the queue. */
    const drain = async () => {
      stopping = true;
      while (inFlight.size > 0) await new Promise<void>((resolve) => (wake = resolve));
      for (const row of [...ready.splice(0), ...arrivals.splice(0).map((a) => a.row)]) await this.release(row);
    };
    for (;;) {
      if (!(await this.heartbeat())) return;
      const state = await this.state();
      if (state.status !== 'running') return drain();
      const room = this.crawl.maxPages - state.pagesFetched - inFlight.size - arrivals.length - ready.length;
      ready.push(...(await this.take(Math.min(room, 2 * this.inFlightLimit - inFlight.size - ready.length))));
      launchReady();
      if (arrivals.length === 0) {
        if (inFlight.size === 0) return;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
      // One turn of the event loop: the answers that came in while the last group was processed
      // settle now and join this group, so one commit covers them all.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.job.signal.aborted) return;
      const group = arrivals.splice(0);
      const failure = group.find((a) => 'error' in a);
      if (failure && 'error' in failure) {
        for (const a of group) await this.release(a.row);
        await drain();
        throw failure.error;
      }
      const prepared: Prepared[] = [];
      for (const a of group) if ('page' in a) prepared.push(await this.prepare(a.row, a.page, a.reading));
      const outcomes = await this.commitInSlices(prepared);
      // The job was lost or cancelled: its frontier rows are no longer this run's to hand back.
      if (this.job.signal.aborted) return;
      for (const [i, p] of prepared.entries()) {
        const outcome = outcomes[i];
        if (outcome !== 'stored' && p.row.bucket !== 'seed') this.fetched[p.row.bucket]--;
        if (outcome === undefined || outcome === 'budget_exhausted' || outcome === 'stopped') await this.release(p.row);
      }
      const last = outcomes[outcomes.length - 1];
      if (last === 'budget_exhausted' || last === 'stopped') return drain();
      this.processed += outcomes.length;
      this.sinceHeartbeat += outcomes.length;
      this.sinceHits += outcomes.length;
      if (this.expansion !== 'none' && this.sinceHits >= Math.max(HITS_EVERY, Math.floor(this.processed * HITS_GROWTH))) {
        this.sinceHits = 0;
        await this.refreshScores();
      }
    }
  }

  /**
   * Stores the prepared pages COMMIT_SLICE at a time, one transaction each, with a turn of the event
   * loop between: the write lock and the main thread are never held for a whole group at once, so API
   * requests in this process and writers in others get in between. Stops at the first budget_exhausted
   * or stopped outcome; pages without an outcome go back to the queue.
   */
  private async commitInSlices(prepared: Prepared[]): Promise<Outcome[]> {
    const outcomes: Outcome[] = [];
    for (let i = 0; i < prepared.length; i += COMMIT_SLICE) {
      if (i > 0) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (this.job.signal.aborted) break;
      }
      const slice = prepared.slice(i, i + COMMIT_SLICE);
      const done = await this.ctx.store.atomically(async () => {
        // Under the job's row lock: a run whose job another worker took over (its lease ran out in a stall)
        // stores and charges nothing more; the taker fetches these pages again.
        if (!(await this.job.holds())) return [];
        if (this.cachesWithPages) for (const p of slice) await this.fetcher.remember!(p.page);
        const made: Outcome[] = [];
        const searchable: IndexedPageRecord[] = [];
        for (const p of slice) {
          const outcome = await this.commit(p, searchable);
          made.push(outcome);
          if (outcome === 'budget_exhausted' || outcome === 'stopped') break;
        }
        // The search index last: SQLite's full-text index writes the terms it holds as a segment of its own at
        // every statement that may roll back alone, so indexing each page before its links wrote one segment a
        // page, each merged and written again later; last, the transaction's pages make one (docs/benchmarks.md).
        if (searchable.length > 0) await this.deps.indexPages?.(searchable);
        return made;
      });
      outcomes.push(...done);
      const last = done[done.length - 1];
      if (last === 'budget_exhausted' || last === 'stopped') break;
    }
    return outcomes;
  }

  /**
   * The job's heartbeat (a read and a write) every few pages, or once a second of engine time
   * has passed: often enough to keep the lease and notice a cancel, not once per page.
   */
  private async heartbeat(): Promise<boolean> {
    const now = this.ctx.clock.now().getTime();
    if (this.sinceHeartbeat < HEARTBEAT_PAGES && now - this.lastHeartbeat < HEARTBEAT_MS) return true;
    this.sinceHeartbeat = 0;
    this.lastHeartbeat = now;
    return this.job.heartbeat();
  }

  /** Loaded on first use: a resumed run starts from the links its predecessors stored. */
  private async linkGraph(): Promise<LinkGraph> {
    this.links ??= new LinkGraph(await this.frontier.edgeIds(REGION_WEIGHTS));
    return this.links;
  }

  /** The crawl's own row as it stands (cancelled meanwhile, pages counted so far). */
  private async state(): Promise<RunState> {
    const state = await this.crawls.runState(this.crawl.id);
    if (!state) throw new Error(`Crawl ${this.crawl.id} is gone from the store.`);
    return state;
  }

  /** A claimed URL that will not be processed in this run goes back to the queue. */
  private release(row: FrontierRow): Promise<void> {
    return this.frontier.setState(row.url, 'queued');
  }

  /**
   * Up to `n` URLs claimed in one transaction: seeds first, then breadth-first or, each time, the smart
   * bucket furthest below its share among those with URLs left. The picks are made here from the
   * frontier's candidates (up to `n` of each bucket, held by this transaction), so a batch of claims is
   * two calls to the store, not one or more per URL.
   */
  private async take(n: number): Promise<FrontierRow[]> {
    if (n <= 0) return [];
    // Through the store's transactions, as every write of the crawl: a raw transaction opened while
    // another caller's spans an await would join it and roll back with it.
    return this.ctx.store.atomically(async () => {
      if (!this.smart) return this.frontier.claim(await this.frontier.candidates('breadth_first', n));
      const candidates = await this.frontier.candidates('buckets', n);
      const picks = candidates.filter((c) => c.bucket === 'seed').slice(0, n);
      const left: Record<Bucket, FrontierRow[]> = { hub: [], detail: [], explore: [] };
      for (const c of candidates) if (c.bucket !== 'seed') left[c.bucket].push(c);
      const available = new Set<Bucket>((['hub', 'detail', 'explore'] as const).filter((b) => left[b].length > 0));
      while (picks.length < n) {
        const bucket = nextBucket(this.fetched, available);
        if (!bucket) break;
        picks.push(left[bucket].shift()!);
        this.fetched[bucket]++;
        if (left[bucket].length === 0) available.delete(bucket);
      }
      return this.frontier.claim(picks);
    });
  }

  /**
   * The periodic graph refresh: HITS over the links found so far lifts queued URLs' priorities
   * (smart only) and every stored document gets its current graph scores, so results read
   * mid-crawl are ranked. Runs after 25 pages, then whenever a quarter more were processed, so
   * its total cost stays linear in the crawl's size.
   */
  private async refreshScores(): Promise<void> {
    const graph = GraphScores.of(await this.linkGraph());
    await this.ctx.store.atomically(async () => {
      if (this.smart) await this.frontier.applyAuthority((rowId) => graph.authorityOf(rowId));
      await this.writeDocumentScores(graph);
    });
  }

  /** importance (OPIC share), hub, authority, in- and outlinks, anchors: written only where they changed, in one call. */
  private async writeDocumentScores(graph: GraphScores): Promise<void> {
    const mass = (await this.frontier.mass()) || 1;
    const changed: DocumentScores[] = [];
    for (const doc of await this.crawls.documentNodes(this.crawl.id)) {
      const next = {
        url: doc.url,
        importance: round(doc.weight / mass, 6),
        hubScore: graph.hubOf(doc.node),
        authorityScore: graph.authorityOf(doc.node),
        inlinks: doc.nodeInlinks,
        outlinks: graph.outlinksOf(doc.node),
        anchors: doc.nodeAnchors,
      };
      const same =
        next.importance === doc.importance &&
        next.hubScore === doc.hubScore &&
        next.authorityScore === doc.authorityScore &&
        next.inlinks === doc.inlinks &&
        next.outlinks === doc.outlinks &&
        // Anchors are only ever appended (up to a cap), so an equal count means an equal list.
        doc.nodeAnchors.length === doc.anchorCount;
      if (!same) changed.push(next);
    }
    await this.crawls.setScores(this.crawl.id, changed);
  }

  /** Graph scores for every document, the smart_crawl block, the summary, and the credits settled. */
  async finish(): Promise<void> {
    const graph = GraphScores.of(await this.linkGraph());
    const report = this.smart ? await this.report(graph) : null;
    const summary = this.config.generate_summary ? await this.summarize(await this.crawls.summaries(this.crawl.id)) : null;
    await this.ctx.store.atomically(async () => {
      const current = await this.state();
      if (current.status !== 'running') return;
      await this.writeDocumentScores(graph);
      if (current.reservationId) await this.deps.credits.commit(current.reservationId, pricing.crawlPage(this.config));
      // Nothing could be fetched at all: the crawl failed, and says why.
      const failed = current.pagesFetched === 0 && current.pagesFailed > 0;
      await this.crawls.transition(this.crawl.id, ['running'], {
        status: failed ? 'failed' : 'completed',
        error: failed ? `No page could be fetched; last failure ${current.lastFailure}` : null,
        completedAt: this.ctx.clock.now().toISOString(),
        smartCrawl: report as Record<string, unknown> | null,
        summary,
      });
    });
  }

  /** The smart_crawl block from aggregates and a streamed pass over the URLs: bounded whatever the frontier's size. */
  private async report(graph: GraphScores): Promise<SmartCrawlReport> {
    const mass = (await this.frontier.mass()) || 1;
    const totals = await this.frontier.totals();
    const domainAuthority = new Map<string, number>();
    await this.frontier.forEachUrl((rowId, url) => {
      if (!graph.has(rowId)) return;
      const domain = domainOf(url);
      domainAuthority.set(domain, (domainAuthority.get(domain) ?? 0) + graph.authorityOf(rowId));
    });
    const byUrl = async (kind: 'hub' | 'authority') => {
      const scores = new Map<string, number>();
      const contenders = graph.contenders(kind, REPORT_TOP);
      const urls = await this.frontier.urlsOf(contenders.map((c) => c.rowId));
      for (const { rowId, score } of contenders) {
        const url = urls.get(rowId);
        if (url !== undefined) scores.set(url, score);
      }
      return scores;
    };
    return smartCrawlReport({
      nodes: totals.nodes,
      edges: graph.edgeCount,
      fetched: totals.fetched,
      captured: totals.banked / mass,
      heaviest: (await this.frontier.heaviest(REPORT_TOP)).map((n) => ({ url: n.url, importance: n.weight / mass, inlinks: n.inlinks })),
      hubs: await byUrl('hub'),
      authorities: await byUrl('authority'),
      domainAuthority,
    });
  }

  /** The crawl summary is engine.extraction's (model-written or extractive); without an enricher, the same extractive one. */
  private async summarize(docs: { url: string; title: string | null; text: string; summary: string | null }[]): Promise<string> {
    const inputs = docs.map((d) => ({ url: d.url, title: d.title, summary: d.summary ?? d.text.slice(0, SUMMARY_FALLBACK_CHARS) }));
    const enricher = this.deps.enricher?.();
    return enricher?.summarizeCrawl ? enricher.summarizeCrawl(inputs) : summarizeCrawl(inputs);
  }

  /** The page's work outside the transaction: parsing and the (possibly remote) enrichment. */
  private async prepare(row: FrontierRow, page: FetchedPage, reading?: Promise<ParsedPage>): Promise<Prepared> {
    if (!usable(page)) return { row, page, failure: page.error ? `${page.error.code}: ${page.error.message}` : `HTTP ${page.status}` };
    const parsed = page.kind === 'html' ? await (reading ?? this.read(page.body!, page.url)) : null;
    const finalUrl = normalizeUrl(page.url) ?? row.url;
    const canonical = parsed?.canonical ? normalizeUrl(parsed.canonical) : null;
    return { row, page, parsed, finalUrl, canonical, enrichment: await this.enrich(page, parsed) };
  }

  /** Stores, charges and expands one prepared page, adding its search-index entry to `searchable`; the caller holds the transaction. */
  private async commit(p: Prepared, searchable: IndexedPageRecord[]): Promise<Outcome> {
    const { row, page } = p;
    if ('failure' in p) {
      await this.frontier.setState(row.url, 'failed');
      await this.crawls.countFailed(this.crawl.id, `${row.url}: ${p.failure}`);
      return 'failed';
    }
    const { parsed, finalUrl, canonical, enrichment } = p;
    const fingerprint = contentFingerprint(page);
    const sameBody = fingerprint !== null && this.fingerprints.has(fingerprint);
    if (sameBody || (await this.isCovered(finalUrl, row.url)) || (canonical && (await this.isCovered(canonical, row.url)))) {
      await this.frontier.setState(row.url, 'duplicate');
      await this.crawls.countSkipped(this.crawl.id);
      return 'duplicate';
    }
    if (enrichment.keep === false) {
      await this.frontier.bankCash(row.url);
      await this.frontier.setState(row.url, 'filtered');
      await this.crawls.countFiltered(this.crawl.id);
      if (parsed) await this.expand(row, parsed, 0);
      return 'filtered';
    }
    const state = await this.state();
    // Cancelled meanwhile (perhaps by another engine): the reservation is already released.
    if (state.status !== 'running') return 'stopped';
    const credits = page.rendering?.rendered
      ? pricing.renderedPageCredits(state.pricePerPage)
      : page.fromCache
      ? pricing.cachedPagesCost(state.pagesCached + 1, state.pricePerPage) - pricing.cachedPagesCost(state.pagesCached, state.pricePerPage)
      : state.pricePerPage;
    if (state.reservationId && !(await this.charge(state.reservationId, credits, page))) return 'budget_exhausted';
    await this.storeDocument(row, page, parsed, credits, enrichment, fingerprint);
    if (fingerprint) this.fingerprints.add(fingerprint);
    const entry = parsed && !parsed.robots.noindex ? this.searchEntry(row, page, parsed) : null;
    if (entry) searchable.push(entry);
    await this.crawls.countFetched(this.crawl.id, credits, page.fromCache);
    for (const covered of [finalUrl, canonical]) if (covered && covered !== row.url) await this.frontier.markCovered(covered, row.depth);
    const cash = await this.frontier.bankCash(row.url);
    if (parsed) await this.expand(row, parsed, cash);
    return 'stored';
  }

  /**
   * Draws a page's price from the crawl's reservation. The one exception to "never past the
   * reservation": a page `render: auto` rendered costs more than was reserved for it, and the
   * difference is reserved on the way when the balance (and budget_config.max_credits) allow.
   */
  private async charge(reservationId: string, credits: number, page: FetchedPage): Promise<boolean> {
    if (await this.deps.credits.use(reservationId, credits)) return true;
    if (this.config.render !== 'auto' || !page.rendering?.rendered) return false;
    const cap = this.config.budget_config?.max_credits;
    if (cap !== undefined && (await this.deps.credits.reservation(reservationId)).used + credits > cap) return false;
    return this.deps.credits.useBeyond(reservationId, credits);
  }

  private async isCovered(url: string, self: string): Promise<boolean> {
    if (url === self) return false;
    const existing = await this.frontier.get(url);
    return existing !== undefined && existing.state !== 'queued' && existing.state !== 'failed';
  }

  /**
   * Starts reading an arrived HTML page on the reader's thread at once, when pages are read off the
   * main thread (no enrichment): the main thread stores the pages before it meanwhile. Undefined
   * when the page is read in place, at its turn, as before.
   */
  private readAhead(page: FetchedPage): Promise<ParsedPage> | undefined {
    if (!this.deps.reader || this.enriching() || page.kind !== 'html' || !usable(page)) return undefined;
    const reading = Promise.resolve(this.deps.reader.parse(page.body!, page.url, this.readOptions));
    // Awaited in prepare(); a page dropped before its turn (a stop, a failed fetch in its group) must not raise an unhandled rejection.
    reading.catch(() => {});
    return reading;
  }

  /** A page read in a worker has no tree to hand on, so pages that extraction reads again are read in place. */
  private read(html: string, url: string): Promise<ParsedPage> | ParsedPage {
    return this.deps.reader && !this.enriching() ? this.deps.reader.parse(html, url, this.readOptions) : parseHtml(html, url, this.readOptions);
  }

  private enriching(): boolean {
    return Boolean(this.config.extraction_schema || this.config.classify_documents || this.config.generate_summary || (this.config.classifiers?.length ?? 0) > 0);
  }

  private async enrich(page: FetchedPage, parsed: ParsedPage | null): Promise<PageEnrichment> {
    const enricher = this.deps.enricher?.();
    if (!enricher || !this.enriching()) return {};
    return enricher.enrich({
      page,
      parsed,
      extractionSchema: this.config.extraction_schema,
      classify: this.config.classify_documents,
      classifiers: this.config.classifiers,
      intent: this.config.intent,
      summarize: this.config.generate_summary,
    });
  }

  private storeDocument(
    row: FrontierRow,
    page: FetchedPage,
    parsed: ParsedPage | null,
    credits: number,
    enrichment: PageEnrichment,
    fingerprint: string | null,
  ): Promise<void> {
    const text = parsed ? parsed.text : (page.body ?? '');
    return this.crawls.insertDocument({
      crawlId: this.crawl.id,
      url: row.url,
      seq: row.seq,
      finalUrl: page.url,
      statusCode: page.status,
      contentType: page.contentType,
      depth: row.depth,
      title: parsed?.title ?? null,
      description: parsed?.description ?? null,
      language: parsed?.language ?? null,
      publishedDate: parsed?.publishedDate ?? null,
      text,
      markdown: parsed ? parsed.markdown : text,
      links: (parsed?.links ?? []).map((l) => ({ url: l.url, text: l.text })),
      metadata: parsed
        ? {
            canonical: parsed.canonical,
            author: parsed.author,
            modified_date: parsed.modifiedDate,
            open_graph: parsed.openGraph,
            json_ld: parsed.jsonLd,
            microdata: parsed.microdata,
            headings: parsed.headings,
            word_count: parsed.wordCount,
            content_fingerprint: fingerprint,
          }
        : { kind: page.kind, content_fingerprint: fingerprint },
      extractedData: enrichment.extracted_data
        ? { extracted_data: enrichment.extracted_data, extraction_metadata: enrichment.extraction_metadata ?? {} }
        : null,
      classification: enrichment.classification ?? null,
      summary: enrichment.summary ?? null,
      fromCache: page.fromCache,
      credits,
      inlinks: row.inlinks,
      anchors: row.anchors,
      fetchedAt: new Date(page.fetchedAt).toISOString(),
    });
  }

  private searchEntry(row: FrontierRow, page: FetchedPage, parsed: ParsedPage): IndexedPageRecord | null {
    if (!this.deps.indexPages) return null;
    return indexEntry(parsed, { url: row.url, anchorTexts: row.anchors, ownerUserId: this.crawl.userId, crawlId: this.crawl.id, fetchedAt: page.fetchedAt });
  }

  /**
   * `sitemap: include`: the seed sites' sitemap URLs join the frontier at depth 1 before the first
   * fetch, held to the rules links are held to, with an equal share of one page's OPIC cash (a
   * sitemap vouches for its URLs less than a page's links do: no edges, no anchors). Once per crawl:
   * a run that finds more than its seeds in the frontier, or pages fetched, has been seeded already.
   */
  private async seedFromSitemaps(): Promise<void> {
    const sitemapUrls = this.deps.sitemapUrls;
    if (!sitemapUrls || this.expansion === 'none' || this.crawl.maxDepth < 1) return;
    const { hub, detail, explore } = await this.frontier.countsByBucket(['queued', 'fetching', 'done', 'failed', 'duplicate', 'filtered']);
    if ((await this.state()).pagesFetched > 0 || hub + detail + explore > 0) return;
    // Enough to fill the budget after scope and pattern rules drop some; the map's own cap bounds it.
    const limit = Math.min(100_000, this.crawl.maxPages * 4);
    const found = new Set<string>();
    for (const site of new Set(this.config.urls.map((u) => new URL(u).origin))) {
      const patterns = { urlPatterns: this.config.link_extraction_config?.url_patterns, excludePatterns: this.config.link_extraction_config?.exclude_patterns };
      for (const url of await sitemapUrls(`${site}/`, { limit, ...patterns, signal: this.job.signal })) found.add(url);
    }
    const candidates = [...found].filter((url) => this.admits(url));
    if (candidates.length === 0) return;
    const cash = 1 / candidates.length;
    await this.ctx.store.atomically(() => this.queue(candidates.map((url) => ({ url, depth: 1, anchor: '', context: '', isNext: false, cash }))));
  }

  /**
   * URLs into the frontier in one batch, each scored against the intent and put in its smart-crawl
   * bucket; their row ids. Candidates are distinct URLs, so which are new is known before the batch.
   */
  private async queue(found: readonly Candidate[]): Promise<number[]> {
    // Only an intent's scorer counts new candidates; without one, skip the lookup.
    const known = this.scorer.active ? await this.frontier.known(found.map((c) => c.url)) : undefined;
    const links = found.map((c): Discovered => {
      const text = { url: c.url, anchors: c.anchor ? [c.anchor] : [], context: c.context };
      const fresh = known !== undefined && !known.has(c.url);
      if (fresh) this.scorer.observe(text);
      // A known URL's own words were judged when it was found (and its new anchors are, by the store): of this link it
      // takes only the relevance its page lends, which may move it out of exploration. Judged again by this link's
      // context, a table of contents found through the "Up" link beside "11.2. Index Types" read as a page on indexes.
      const lent = c.inherited ?? 0;
      const relevance = fresh ? Math.max(this.scorer.score(text), lent) : lent;
      const bucket: Bucket = looksLikeHub(c.url, c.isNext) ? 'hub' : !this.scorer.active || relevance >= DETAIL_RELEVANCE ? 'detail' : 'explore';
      return { url: c.url, depth: c.depth, bucket, relevance, anchor: c.anchor, context: c.context, cash: c.cash };
    });
    // Without an intent nothing scores anchors: the store keeps a new one as it is.
    return this.frontier.discoverMany(links, this.scorer.active ? (url, anchors, context) => this.scorer.score({ url, anchors, context }) : undefined);
  }

  /** How much a fetched page is about the intent, read as a link to it would be: its title and top headings for anchors. */
  private pageRelevance(row: FrontierRow, parsed: ParsedPage): number {
    if (!this.scorer.active) return 0;
    const titles = parsed.headings.filter((h) => h.level === 1).map((h) => h.text);
    return this.scorer.score({ url: row.url, anchors: parsed.title ? [parsed.title, ...titles] : titles, context: '' });
  }

  /**
   * Whether a found URL (a link, a sitemap's entry) may join the frontier: in scope, not junk (smart crawls), allowed
   * by the patterns, and no longer than a URL the API takes (MAX_URL_LENGTH). Longer links are mostly traps (state
   * piled into the query at each click), and a document under one could not be asked for again by its URL.
   */
  private admits(url: string): boolean {
    if (url.length > MAX_URL_LENGTH || !inScope(this.expansion, this.seedSites, url)) return false;
    return !(this.smart && junkReason(url)) && this.patterns.allows(url);
  }

  /** Queues the page's links that pass scope, junk, pattern and depth rules, and hands on its OPIC cash. */
  private async expand(row: FrontierRow, parsed: ParsedPage, cash: number): Promise<void> {
    if (this.expansion === 'none' || parsed.robots.nofollow) return;
    const maxDepth = this.crawl.maxDepth;
    const pagination = this.config.link_extraction_config?.detect_pagination ?? false;
    const next = parsed.nextPage ? normalizeUrl(parsed.nextPage) : null;
    const candidates = new Map<string, Omit<Candidate, 'cash'> & { region: LinkRegion }>();
    for (const link of parsed.links) {
      if (link.nofollow) continue;
      const url = normalizeUrl(link.url);
      if (!url || url === row.url) continue;
      const seen = candidates.get(url);
      if (seen) {
        seen.region = strongerRegion(seen.region, link.region);
        continue;
      }
      if (!this.admits(url)) continue;
      const isNext = pagination && url === next;
      const depth = isNext ? row.depth : row.depth + 1;
      if (depth > maxDepth) continue;
      candidates.set(url, { url, anchor: link.text, context: link.context, isNext, depth, region: link.region });
    }
    const share = candidates.size > 0 ? cash / candidates.size : 0;
    const inherited = INHERITED_RELEVANCE * this.pageRelevance(row, parsed);
    const found = [...candidates.values()].map((c) => ({ ...c, cash: share, inherited: c.region === 'main' ? inherited : 0 }));
    // Loaded before this page's edges are stored, or they would be counted twice.
    const links = await this.linkGraph();
    // A page's links are two batches whatever their number (issue 11: hundreds of links a page),
    // sent together: the edges do not wait for the discovery.
    const [targets, stored] = await Promise.all([this.queue(found), this.frontier.addEdges(row.url, found)]);
    found.forEach((c, i) => {
      if (stored[i]) links.add(row.id, targets[i]!, REGION_WEIGHTS[c.region]);
    });
  }
}

/** A URL about to join the frontier, as a link (or a sitemap) found it. */
interface Candidate {
  url: string;
  depth: number;
  anchor: string;
  context: string;
  isNext: boolean;
  cash: number;
  /** The relevance the linking page lends it (INHERITED_RELEVANCE), when it has one. */
  inherited?: number;
}

/** A page worth reading and storing: fetched without error, 2xx, with a body. */
function usable(page: FetchedPage): boolean {
  return !page.error && page.status >= 200 && page.status < 300 && page.body !== null;
}

/**
 * SHA-256 of the body as fetched: two URLs answering byte-identical bodies within one crawl
 * (`/category/x` and `/category/x?page=1` without a canonical) are one page, stored and charged once.
 */
function contentFingerprint(page: FetchedPage): string | null {
  if (!page.body) return null;
  return createHash('sha256').update(page.body).digest('hex');
}
