import type { Store } from '../store.js';
import type { StorePorts } from '../ports.js';
import { createPool, migratePostgres } from './client.js';
import { PgExecutor } from './executor.js';
import { PgAccounts, PgRateLimits } from './accounts.js';
import { PgCrawl } from './crawl.js';
import { PgHostGate } from './hosts.js';
import { PgJobsPort } from './jobs.js';
import { PgLedger } from './ledger.js';
import { PgNotify } from './notify.js';
import { PgSearchIndex } from './search-index.js';
import { PgSearchJobs } from './search-jobs.js';
import { PgSessions } from './sessions.js';
import { PgShares } from './shares.js';
import { PgUsers } from './users.js';
import { PgWebCache } from './web-cache.js';
import { PgSchedules, PgWorkflows } from './workflows.js';

/**
 * The PostgreSQL store keeps a way to run a statement in reach, as the SQLite store keeps its connection:
 * tests that look at (or set up) rows no port shows use it, on the engine's own pool and transactions.
 */
export interface PgStore extends Store {
  readonly dialect: 'postgres';
  query<R extends Record<string, unknown> = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: R[]; rowCount: number }>;
}

export interface PgStoreOptions {
  /** Connections in this process's pool (default 10). */
  max?: number;
}

/**
 * The PostgreSQL driver: every port over one pool, for many engines (servers, workers) sharing one
 * database. Created without I/O, like the SQLite store: the schema is migrated before the first
 * statement runs (`ready()` waits for it, so a server can fail fast on a database it cannot reach).
 */
export function createPgStore(url: string, options: PgStoreOptions = {}): PgStore {
  const pool = createPool(url, options);
  const ex = new PgExecutor(pool, () => migratePostgres(pool));
  const ports: StorePorts = {
    // One line per port.
    jobs: new PgJobsPort(ex),
    workflows: new PgWorkflows(ex),
    schedules: new PgSchedules(ex),
    hosts: new PgHostGate(ex),
    accounts: new PgAccounts(ex),
    rateLimits: new PgRateLimits(ex),
    notify: new PgNotify(ex),
    webCache: new PgWebCache(ex),
    sessions: new PgSessions(ex),
    searchJobs: new PgSearchJobs(ex),
    searchIndex: new PgSearchIndex(ex),
    ledger: new PgLedger(ex),
    crawl: new PgCrawl(ex),
    users: new PgUsers(ex),
    shares: new PgShares(ex),
  };
  return {
    dialect: 'postgres',
    ...ports,
    atomically: (fn) => ex.atomically(() => fn(ports)),
    ready: () => ex.ready(),
    async query<R extends Record<string, unknown>>(text: string, params: unknown[] = []) {
      const result = await ex.query<R>(text, params);
      return { rows: result.rows, rowCount: result.rowCount ?? 0 };
    },
    close: () => pool.end(),
  };
}
