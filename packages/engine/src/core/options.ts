import { join } from 'node:path';
import { homedir } from 'node:os';
import type { Clock } from './clock.js';
import { systemClock } from './clock.js';
import type { RandomSource } from './ids.js';
import { cryptoRandom } from './ids.js';
import { DEFAULT_FETCH_LIMITS, MAX_PER_HOST_CONCURRENCY, type FetchLimits, type ProxyOptions } from './fetch-limits.js';
import { errors } from './errors.js';
import { resolveAi, type AiOptions, type ResolvedAi } from './ai-options.js';
import type { RenderOptions } from './render-options.js';

export interface EngineOptions {
  /** Folder holding `wvr.db` (default `~/.wvr`, or `WVR_DATA_DIR`). */
  dataDir?: string;
  /** Explicit SQLite path; `:memory:` for a private in-memory database. Wins over dataDir. */
  dbPath?: string;
  /**
   * PostgreSQL instead of the SQLite file, e.g. `postgres://user@host:5432/wvr`: every engine (servers,
   * workers) pointed at one database shares its crawls, jobs, schedules and ledger (docs/postgres.md).
   * Default `WVR_DATABASE_URL`, unless dataDir or dbPath name a SQLite file in code.
   */
  databaseUrl?: string;
  clock?: Clock;
  random?: RandomSource;
  /** Allow fetching private, loopback and link-local addresses (the local CLI does). */
  allowPrivateNetwork?: boolean;
  /** User agent for every fetch; default `wvr/<version>`. */
  userAgent?: string;
  /** Forward proxy URLs for the paid tiers, e.g. `http://user:pass@proxy.example:8080` (docs/fetching.md). */
  proxies?: ProxyOptions;
  /** Fetch limits (timeouts, caps, politeness); defaults in docs/fetching.md. */
  fetchLimits?: Partial<FetchLimits>;
  /** The rendering tier: Chromium path, contexts, memory, page timeout (docs/rendering.md). */
  render?: RenderOptions;
  /** Secret that signs token bodies and webhooks; generated and stored in the database when absent. */
  secret?: string;
  /** Monthly credit grants per plan; free is 100 per the spec; `local` is not limited by its balance and gets none. */
  monthlyGrants?: Partial<Record<'free' | 'developer' | 'pro' | 'local', number>>;
  /** SMTP server for email notifications, e.g. `smtp://user:pass@host:587` (default `WVR_SMTP_URL`). */
  smtpUrl?: string;
  /** Sender address of notification emails (default `WVR_SMTP_FROM`, else `wvr@localhost`). */
  emailFrom?: string;
  /** SearXNG instance for web search, e.g. `http://127.0.0.1:8888` (default `WVR_SEARXNG_URL`). */
  searxngUrl?: string;
  /**
   * Provider searches use: `local` (the engine's index) or `searxng` (default `WVR_SEARCH_PROVIDER`; when that is
   * unset, `searxng` if a SearXNG URL is given, else `local`).
   */
  searchProvider?: 'local' | 'searxng';
  /**
   * Worker threads that read crawled pages (tree, text, markdown, links) off the main thread. Default: one per
   * spare core, at most 4, when the engine runs built; 0 (read in place) when it runs from its TypeScript sources.
   */
  parseWorkers?: number;
  /**
   * How long the page readers are kept once no crawl is running (default 5,000 ms): a crawl that starts meanwhile
   * finds them warm, and after that their memory (tens of MB each on real sites) is given back. 0 lets them go as
   * the last crawl ends, as a one-shot command (`wvr crawl`) does.
   */
  readerIdleMs?: number;
  /** Model layer: `heuristic` (default) or any OpenAI-compatible endpoint (default `WVR_AI_*`; docs/ai-providers.md). */
  ai?: AiOptions;
  /**
   * Check every operation's answer against its output schema (a 500 naming the field when they
   * disagree). Test engines turn it on; it costs a parse per call, so production leaves it off.
   */
  validateOutputs?: boolean;
}

export interface ResolvedOptions {
  dbPath: string;
  /** Set: the store is PostgreSQL at this URL, and dbPath is unused. */
  databaseUrl: string | undefined;
  clock: Clock;
  random: RandomSource;
  allowPrivateNetwork: boolean;
  userAgent: string;
  proxies: ProxyOptions;
  fetchLimits: FetchLimits;
  /** Resolved by the web service, which owns the browser. */
  render: RenderOptions | undefined;
  secret: string | undefined;
  monthlyGrants: Record<'free' | 'developer' | 'pro' | 'local', number>;
  smtpUrl: string | undefined;
  emailFrom: string;
  searxngUrl: string | undefined;
  searchProvider: string;
  parseWorkers: number | undefined;
  readerIdleMs: number | undefined;
  ai: ResolvedAi;
  validateOutputs: boolean;
}

export const ENGINE_VERSION = '0.1.0';
export const API_VERSION = '1.7.0';

export function defaultDataDir(): string {
  return process.env.WVR_DATA_DIR || join(homedir(), '.wvr');
}

export function resolveOptions(options: EngineOptions): ResolvedOptions {
  const searxngUrl = options.searxngUrl ?? (process.env.WVR_SEARXNG_URL || undefined);
  return {
    dbPath: options.dbPath ?? join(options.dataDir ?? defaultDataDir(), 'wvr.db'),
    databaseUrl: options.databaseUrl ?? (options.dbPath || options.dataDir ? undefined : process.env.WVR_DATABASE_URL || undefined),
    clock: options.clock ?? systemClock,
    random: options.random ?? cryptoRandom,
    allowPrivateNetwork: options.allowPrivateNetwork ?? false,
    userAgent: options.userAgent ?? `wvr/${ENGINE_VERSION}`,
    proxies: {
      premium: options.proxies?.premium ?? (process.env.WVR_PROXY_PREMIUM || undefined),
      ultra_premium: options.proxies?.ultra_premium ?? (process.env.WVR_PROXY_ULTRA_PREMIUM || undefined),
    },
    parseWorkers: options.parseWorkers ?? wholeNumberFromEnv('WVR_PARSE_WORKERS', 0, MAX_PARSE_WORKERS),
    readerIdleMs: options.readerIdleMs,
    fetchLimits: { ...DEFAULT_FETCH_LIMITS, ...fetchLimitsFromEnv(), ...options.fetchLimits },
    render: options.render,
    secret: options.secret,
    monthlyGrants: { free: 100, developer: 5_000, pro: 25_000, local: 0, ...options.monthlyGrants },
    smtpUrl: options.smtpUrl ?? (process.env.WVR_SMTP_URL || undefined),
    emailFrom: options.emailFrom ?? (process.env.WVR_SMTP_FROM || 'wvr@localhost'),
    searxngUrl,
    searchProvider: options.searchProvider ?? (process.env.WVR_SEARCH_PROVIDER || (searxngUrl ? 'searxng' : 'local')),
    ai: resolveAi(options.ai),
    validateOutputs: options.validateOutputs ?? false,
  };
}

/**
 * `WVR_PER_HOST_CONCURRENCY`: parallel requests to one site, for an engine whose options leave it unset (`wvr serve`,
 * `wvr worker`, the CLI's local engine). The default of 2 is polite to a site someone else runs; a crawl of one's own
 * site, or of an intranet, can ask more of it.
 */
function fetchLimitsFromEnv(): Partial<FetchLimits> {
  const perHostConcurrency = wholeNumberFromEnv('WVR_PER_HOST_CONCURRENCY', 1, MAX_PER_HOST_CONCURRENCY);
  return perHostConcurrency === undefined ? {} : { perHostConcurrency };
}

/** Page reader threads an engine may be configured for. */
const MAX_PARSE_WORKERS = 64;

/**
 * A whole number from the environment, within bounds; undefined when the variable is unset or empty. Anything else
 * stops the engine at start, saying which variable and why: a typo must not run a fleet on a silent default.
 */
function wholeNumberFromEnv(name: string, min: number, max: number): number | undefined {
  const raw = process.env[name];
  if (!raw) return undefined;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(n) || n < min || n > max) {
    throw errors.validation(`invalid_${name.replace(/^WVR_/, '').toLowerCase()}`, `${name} must be a whole number from ${min} to ${max}, not "${raw}".`, {
      suggestions: [`Unset ${name} for the default.`],
    });
  }
  return n;
}
