import type Database from 'better-sqlite3';
import { setTimeout as sleep } from 'node:timers/promises';
import { storageError, storageProblem } from '../../core/storage.js';
import { fallBackOnFullDisk, openDatabase, type Db } from './open.js';
import { TxGate } from '../gate.js';
import { WalCheckpointer } from './checkpointer.js';
import type { Async, Store } from '../store.js';
import type { StorePorts } from '../ports.js';
import type { CrawlPort } from '../ports/crawl.js';
import { SqliteHostGate } from './hosts.js';
import { SqliteAccounts, SqliteRateLimits } from './accounts.js';
import { SqliteJobs } from './jobs.js';
import { SqliteNotify } from './notify.js';
import { SqliteWebCache } from './web-cache.js';
import { SqliteLedger } from './ledger.js';
import { SqliteSchedules, SqliteWorkflows } from './workflows.js';
import { SqliteSessions } from './sessions.js';
import { SqliteSearchIndex, SqliteSearchJobs } from './search.js';
import { SqliteCrawl } from './crawl.js';
import { SqliteUsers } from './users.js';
import { SqliteShares } from './shares.js';

/**
 * Wraps a synchronous SQLite port implementation so each call waits for the gate: at once when
 * no transaction is open (or the caller is inside it), otherwise after the open one commits.
 */
export function gated<T extends object>(gate: TxGate, impl: T): Async<T> {
  const port: Record<string, unknown> = {};
  let proto: object | null = impl;
  while (proto && proto !== Object.prototype) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      const value = (impl as Record<string, unknown>)[key];
      if (key === 'constructor' || key in port || typeof value !== 'function') continue;
      port[key] = (...args: unknown[]) => gate.run(() => (value as (...a: unknown[]) => unknown).apply(impl, args));
    }
    proto = Object.getPrototypeOf(proto);
  }
  return port as Async<T>;
}

/** The crawl port, whose frontier handles are gated like the port itself. */
function gatedCrawl(gate: TxGate, crawl: SqliteCrawl): CrawlPort {
  return { ...gated(gate, crawl), frontier: (crawlId, intent) => gated(gate, crawl.frontier(crawlId, intent)) };
}

/**
 * The SQLite store keeps its connection in reach: tests and benchmarks that look at the file as it is
 * (or fill the disk under it) use the engine's own connection, which a second one could not stand for.
 */
export interface SqliteStore extends Store {
  readonly dialect: 'sqlite';
  readonly sqlite: Database.Database;
  readonly db: Db;
  /** Copies the log into the file on another thread once the database writes enough (null in memory). */
  readonly checkpointer: WalCheckpointer | null;
}

/** Opens (creating and migrating) the SQLite file and puts the store over it. */
export function openSqliteStore(path: string): SqliteStore {
  const { sqlite, db } = openDatabase(path);
  return createSqliteStore(sqlite, db);
}

/** The SQLite driver: today's prepared statements, FTS5 and WAL behind the ports. */
export function createSqliteStore(sqlite: Database.Database, db: Db, gate = new TxGate()): SqliteStore {
  const begin = beginImmediate(sqlite);
  const checkpointer = sqlite.memory ? null : new WalCheckpointer(sqlite.name);
  const ports: StorePorts = {
    // One line per port.
    jobs: gated(gate, new SqliteJobs(sqlite, db)),
    workflows: gated(gate, new SqliteWorkflows(sqlite, db)),
    schedules: gated(gate, new SqliteSchedules(db)),
    hosts: gated(gate, new SqliteHostGate(sqlite)),
    accounts: gated(gate, new SqliteAccounts(db)),
    rateLimits: gated(gate, new SqliteRateLimits(sqlite, db)),
    notify: gated(gate, new SqliteNotify(sqlite, db)),
    webCache: gated(gate, new SqliteWebCache(sqlite)),
    sessions: gated(gate, new SqliteSessions(sqlite, db)),
    searchJobs: gated(gate, new SqliteSearchJobs(db)),
    searchIndex: gated(gate, new SqliteSearchIndex(sqlite)),
    ledger: gated(gate, new SqliteLedger(sqlite)),
    crawl: gatedCrawl(gate, new SqliteCrawl(sqlite, db)),
    users: gated(gate, new SqliteUsers(sqlite, db)),
    shares: gated(gate, new SqliteShares(sqlite, db)),
  };
  return {
    dialect: 'sqlite',
    sqlite,
    db,
    checkpointer,
    ...ports,
    atomically: (fn) =>
      gate
        .exclusive(() => fn(ports), {
          begin,
          commit: () => {
            if (!sqlite.inTransaction) throw transactionLost();
            sqlite.exec('COMMIT');
            checkpointer?.committed();
          },
          rollback: () => {
            if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
          },
        })
        .catch((error: unknown) => fallBackOnFullDisk(sqlite, error)),
    // The file was opened and migrated before the store was made.
    ready: async () => undefined,
    async close() {
      await checkpointer?.stop();
      sqlite.close();
    },
  };
}

/**
 * BEGIN IMMEDIATE without blocking the event loop while another connection writes. A transaction
 * spans awaits, so the writer holding the file may be another engine in this very process, and its
 * commit waits for our turn of the event loop: better-sqlite3's busy_timeout would block the thread
 * until it expired. So the attempt itself does not wait (busy_timeout 0 for that statement), and a
 * busy file is retried after a timer, within the connection's own busy_timeout in all.
 */
function beginImmediate(sqlite: Database.Database): () => void | Promise<void> {
  const budgetMs = Number(sqlite.pragma('busy_timeout', { simple: true }));
  const noWait = sqlite.prepare('PRAGMA busy_timeout = 0');
  const restore = sqlite.prepare(`PRAGMA busy_timeout = ${budgetMs}`);
  const begin = sqlite.prepare('BEGIN IMMEDIATE');
  /** Undefined once the transaction began; the SQLITE_BUSY error while another connection writes. */
  const attempt = (): unknown => {
    noWait.run();
    try {
      begin.run();
      return undefined;
    } catch (error) {
      if (storageProblem(error) !== 'busy') throw error;
      return error;
    } finally {
      restore.run();
    }
  };
  return () => {
    // The common case (nobody else writing) stays synchronous.
    if (attempt() === undefined) return;
    return (async () => {
      const deadline = Date.now() + budgetMs;
      for (let wait = 1; ; wait = Math.min(wait * 2, 25)) {
        await sleep(wait);
        const busy = attempt();
        if (busy === undefined) return;
        if (Date.now() >= deadline) throw busy;
      }
    })();
  };
}

/**
 * A transaction spans awaits, and a statement that other work in this process runs meanwhile (one not
 * yet behind a port, so not held back by the gate) lands inside it. When that statement fails with a
 * full disk, SQLite may roll the whole transaction back; committing then must fail, not report success.
 * A storage problem (503 database_busy), so background work retries it.
 */
function transactionLost(): Error {
  return storageError(Object.assign(new Error('The transaction was rolled back under it (a write inside it failed); nothing of it was kept.'), { code: 'SQLITE_BUSY_ROLLBACK' }))!;
}
