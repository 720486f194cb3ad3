import type Database from 'better-sqlite3';
import type { Db } from './open.js';
import { TxGate } from '../gate.js';
import type { Async, Store } from '../store.js';
import type { StorePorts } from '../ports.js';
import { SqliteHostGate } from './hosts.js';
import { SqliteAccounts, SqliteRateLimits } from './accounts.js';
import { SqliteJobs } from './jobs.js';
import { SqliteNotify } from './notify.js';
import { SqliteWebCache } from './web-cache.js';
import { SqliteSchedules, SqliteWorkflows } from './workflows.js';
import { SqliteSessions } from './sessions.js';
import { SqliteSearchIndex, SqliteSearchJobs } from './search.js';

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

/** The SQLite driver: today's prepared statements, FTS5 and WAL behind the ports. */
export function createSqliteStore(sqlite: Database.Database, db: Db, gate = new TxGate()): Store {
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
  };
  return {
    dialect: 'sqlite',
    ...ports,
    atomically: (fn) =>
      gate.exclusive(() => fn(ports), {
        begin: () => sqlite.exec('BEGIN IMMEDIATE'),
        commit: () => sqlite.exec('COMMIT'),
        rollback: () => {
          if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
        },
      }),
    async close() {
      sqlite.close();
    },
  };
}
