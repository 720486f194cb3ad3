import { ParsePool } from './html/index.js';
import { openSqliteStore } from './store/sqlite/index.js';
import { createPgStore } from './store/pg/index.js';
import type { EngineContext } from './context.js';
import type { Principal } from './accounts/schemas.js';
import { resolveOptions, API_VERSION, ENGINE_VERSION, type EngineOptions } from './core/options.js';
import { AccountsService } from './accounts/service.js';
import { TokensService } from './accounts/tokens.js';
import { RateLimitService } from './accounts/rate-limits.js';
import { SharingService } from './accounts/sharing.js';
import { SessionsService } from './sessions/service.js';
import { SessionRunners } from './sessions/runners.js';
import { CreditsService } from './credits/service.js';
import { NotifyService } from './notify/service.js';
import { StoreJobQueue, type JobQueue } from './jobs/index.js';
import { WorkflowsService } from './workflows/service.js';
import { crawlOperation, searchOperation } from './workflows/step-operations.js';
import { SearchService } from './search/service.js';
import { WebService } from './web/service.js';
import { AiService } from './ai/service.js';
import { ExtractionService } from './extract/service.js';
import { CrawlService } from './crawl/service.js';
import { AskService } from './ask/service.js';
import { searchRetriever } from './ask/retriever.js';
import { BrandService } from './brand/service.js';
import { MonitorsService } from './monitors/service.js';
import { createOperationApi, type EngineOps, type RunById } from './operations/api.js';

/** The account an embedder's calls run as when they name no caller; the CLI's local data folder uses it too. */
export const LOCAL_USER_EMAIL = 'local@wvr.localhost';
import { MapService } from './map/service.js';

export interface Engine {
  readonly version: string;
  readonly apiVersion: string;
  readonly context: EngineContext;
  readonly accounts: AccountsService;
  readonly tokens: TokensService;
  readonly rateLimits: RateLimitService;
  readonly sharing: SharingService;
  readonly sessions: SessionsService;
  /** Runs a search, crawl or ask as an operation of a session (POST /v1/sessions/{id}/…, or a body's session_id). */
  readonly sessionRunners: SessionRunners;
  readonly credits: CreditsService;
  readonly notify: NotifyService;
  readonly jobs: JobQueue;
  readonly workflows: WorkflowsService;
  readonly search: SearchService;
  readonly web: WebService;
  readonly ai: AiService;
  readonly extraction: ExtractionService;
  readonly crawls: CrawlService;
  readonly asks: AskService;
  readonly brand: BrandService;
  readonly monitors: MonitorsService;
  readonly map: MapService;
  /**
   * One typed call per operation, by capability: `engine.ops.crawls.create(body, { as, signal })`,
   * with the same validation, scopes and answers as the HTTP API; `crawls.watch` and
   * `workflows.watch` yield progress. Without `as`, calls run as the local owner (LOCAL_USER_EMAIL,
   * the `local` plan, every scope).
   */
  readonly ops: EngineOps;
  /** The same calls by operation id: `engine.run('createCrawl', body)`. */
  readonly run: RunById;
  /**
   * Works in the background in this process: runs queued jobs (crawls, async searches), due
   * workflows and webhook deliveries. `wvr serve` and `wvr worker` call it; an embedder calls it
   * on the processes that should work, not only answer. Any number of engines on one database
   * may run it: jobs and schedule slots are claimed, never run twice. close() stops it.
   */
  start(options?: BackgroundOptions): void;
  /**
   * Resolves once the store can serve: at once on SQLite (opened with the engine); on PostgreSQL once
   * the database answers and is migrated. Calls wait for that anyway; a server awaits it to fail fast.
   */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export interface BackgroundOptions {
  /** Jobs run at once by this process; default 4. */
  concurrency?: number;
  /** How often to look for due jobs, workflows and deliveries, in ms of wall time; defaults 250 / 1000 / 5000. */
  jobPollMs?: number;
  schedulerIntervalMs?: number;
  deliveryIntervalMs?: number;
  /** Scheduled workflow executions run at once by this process; default 8. */
  schedulerConcurrency?: number;
  /** How often idle sessions are archived without waiting for a read, in ms of wall time; default 60000. */
  sessionSweepIntervalMs?: number;
}

/**
 * Opens the whole product over one database: the SQLite file (the embedded default) or PostgreSQL
 * (`databaseUrl`, shared by any number of engines). Two engines in one process share nothing: every
 * piece of state hangs off the returned object.
 */
export function createEngine(options: EngineOptions = {}): Engine {
  const resolved = resolveOptions(options);
  const store = resolved.databaseUrl ? createPgStore(resolved.databaseUrl) : openSqliteStore(resolved.dbPath);
  const context: EngineContext = { store, clock: resolved.clock, random: resolved.random, options: resolved };

  const accounts = new AccountsService(context);
  const credits = new CreditsService(context, accounts);
  const notify = new NotifyService(context, accounts);
  const tokens = new TokensService(context, accounts);
  const rateLimits = new RateLimitService(context);
  const sharing = new SharingService(context, accounts);
  const jobs = new StoreJobQueue(context);
  const web = new WebService(context);
  const ai = new AiService(resolved.ai);
  const extraction = new ExtractionService({ credits, web, ai });
  const pages = new ParsePool({ size: resolved.parseWorkers, idleMs: resolved.readerIdleMs });
  const crawls = new CrawlService(context, { reader: pages, credits, sharing, notify, jobs, fetcher: () => web, enricher: () => extraction, indexPages: (records) => search.index.put(records), sitemapUrls: (site, options) => map.sitemapUrls(site, options) });
  const search = new SearchService(context, { accounts, credits, sharing, notify, jobs, fetcher: web });
  const brand = new BrandService(web, credits);
  const map = new MapService(web, credits);
  const asks = new AskService(context, credits, ai, searchRetriever(search, web), extraction);
  // Sessions sit above the capabilities they drive: built after them, handed them once, never called back by them.
  const sessions = new SessionsService(context, accounts, sharing, { search, crawls });
  const sessionRunners = new SessionRunners(sessions, { search, crawls, asks });
  // Patrols run on their owner's behalf, whoever (token, schedule) set them off.
  const principalOf = async (userId: string) => accounts.localPrincipal(await accounts.getUser(userId));
  const workflows = new WorkflowsService(context, {
    sharing,
    credits,
    rateLimits,
    notify,
    operations: {
      search: searchOperation(search, principalOf),
      crawl: crawlOperation(crawls, jobs, principalOf),
      assertRender: (mode) => web.assertRenderAvailable(mode),
    },
    sessions,
    jobs,
    principalOf,
    provider: ai.provider,
  });
  const monitors = new MonitorsService(context, workflows);

  let localOwner: Principal | undefined;
  const defaultPrincipal = async () =>
    (localOwner ??= accounts.localPrincipal(await accounts.ensureUser({ email: LOCAL_USER_EMAIL, plan: 'local' })));
  // One list: the engine exposes exactly the services its operations run over, for `engine.ops` and the server alike.
  const services = { accounts, tokens, rateLimits, sharing, sessions, sessionRunners, credits, notify, jobs, workflows, search, web, ai, extraction, crawls, asks, brand, map, monitors };
  const api = createOperationApi(services, defaultPrincipal, { validateOutput: resolved.validateOutputs });

  let closed = false;
  return {
    version: ENGINE_VERSION,
    apiVersion: API_VERSION,
    context,
    ...services,
    ops: api.ops,
    run: api.run,
    start(background = {}) {
      jobs.start({ pollMs: background.jobPollMs, concurrency: background.concurrency });
      workflows.scheduler.start(background.schedulerIntervalMs, { concurrency: background.schedulerConcurrency });
      workflows.startRecovery();
      notify.start(background.deliveryIntervalMs);
      sessions.start(background.sessionSweepIntervalMs);
    },
    ready: () => store.ready(),
    async close() {
      if (closed) return;
      closed = true;
      sessions.stop();
      // Every loop stops taking work at once, then finishes what it started. One after the other, the scheduler went on
      // claiming due slots while the job queue stopped (on PostgreSQL its listener's connection closes first), and ran
      // them as the engine closed.
      await Promise.all([jobs.stop(), workflows.scheduler.stop(), workflows.stopRecovery()]);
      await workflows.settled();
      await notify.close();
      await web.close();
      await pages.close();
      await store.close();
    },
  };
}
