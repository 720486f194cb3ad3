import { openDatabase } from './db/client.js';
import type { EngineContext } from './core/context.js';
import { resolveOptions, API_VERSION, ENGINE_VERSION, type EngineOptions } from './core/options.js';
import { AccountsService } from './accounts/service.js';
import { TokensService } from './accounts/tokens.js';
import { RateLimitService } from './accounts/rate-limits.js';
import { SharingService } from './accounts/sharing.js';
import { CreditsService } from './credits/service.js';
import { NotifyService } from './notify/service.js';
import { SqliteJobQueue, type JobQueue } from './jobs/index.js';

export interface Engine {
  readonly version: string;
  readonly apiVersion: string;
  readonly context: EngineContext;
  readonly accounts: AccountsService;
  readonly tokens: TokensService;
  readonly rateLimits: RateLimitService;
  readonly sharing: SharingService;
  readonly credits: CreditsService;
  readonly notify: NotifyService;
  readonly jobs: JobQueue;
  close(): Promise<void>;
}

/**
 * Opens the whole product over one SQLite database. Two engines in one process share
 * nothing: every piece of state hangs off the returned object.
 */
export function createEngine(options: EngineOptions = {}): Engine {
  const resolved = resolveOptions(options);
  const { sqlite, db } = openDatabase(resolved.dbPath);
  const context: EngineContext = { db, sqlite, clock: resolved.clock, random: resolved.random, options: resolved };

  const accounts = new AccountsService(context);
  const credits = new CreditsService(context, accounts);
  const notify = new NotifyService(context, accounts);
  const tokens = new TokensService(context, accounts);
  const rateLimits = new RateLimitService(context);
  const sharing = new SharingService(context, accounts);
  const jobs = new SqliteJobQueue(context);

  let closed = false;
  return {
    version: ENGINE_VERSION,
    apiVersion: API_VERSION,
    context,
    accounts,
    tokens,
    rateLimits,
    sharing,
    credits,
    notify,
    jobs,
    async close() {
      if (closed) return;
      closed = true;
      await jobs.stop();
      await notify.close();
      sqlite.close();
    },
  };
}
