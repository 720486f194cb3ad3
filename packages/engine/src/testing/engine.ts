import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { manualClock, type ManualClock } from '../core/clock.js';
import { createEngine, type Engine } from '../engine.js';
import { WvrError } from '../core/errors.js';
import { takeTestDatabaseSync } from '../store/pg/testing-sync.js';
import type { EngineOptions } from '../core/options.js';
import type { Principal } from '../accounts/schemas.js';
import type { SqliteStore } from '../store/sqlite/index.js';
import type { PgStore } from '../store/pg/index.js';

export interface TestEngine {
  engine: Engine;
  clock: ManualClock;
  /** The SQLite file (unused on PostgreSQL); a second engine on the same database takes `store`. */
  dbPath: string;
  /** Where the engine's database is, for a second engine on it: the SQLite file or the PostgreSQL URL. */
  store: Pick<EngineOptions, 'dbPath' | 'databaseUrl'>;
  dispose(): Promise<void>;
}

/**
 * A real engine on a fresh database with a clock the test drives: a SQLite file in a temp folder, or,
 * with `WVR_TEST_STORE=postgres`, a clean PostgreSQL database of its own (emptied for the next engine, or
 * dropped, on dispose: see testing-sync.ts), so the engine's tests run on either driver.
 */
export function openTestEngine(options: EngineOptions = {}): TestEngine {
  const dir = mkdtempSync(join(tmpdir(), 'wvr-test-'));
  const clock = manualClock('2026-03-10T12:00:00.000Z');
  const dbPath = join(dir, 'wvr.db');
  const database = process.env.WVR_TEST_STORE === 'postgres' ? takeTestDatabaseSync() : undefined;
  const store = database ? { databaseUrl: database.url } : { dbPath };
  const engine = createEngine({ ...store, clock, secret: 'test-secret', validateOutputs: true, ...options });
  return {
    engine,
    clock,
    dbPath,
    store,
    async dispose() {
      await engine.close();
      await database?.release();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A user (created on first use) acting locally with every scope. */
export async function principalOf(engine: Engine, email: string): Promise<Principal> {
  return engine.accounts.localPrincipal(await engine.accounts.ensureUser({ email }));
}

/** principalOf, granted `credits` first (a grant is a ledger write, so this one is async). */
export async function fundedPrincipalOf(engine: Engine, email: string, credits: number): Promise<Principal> {
  const principal = await principalOf(engine, email);
  await engine.credits.grant(principal.userId, credits);
  return principal;
}

export interface SharingCast {
  owner: Principal;
  colleague: Principal;
  outsider: Principal;
  orgId: string;
}

/** An owner and a colleague in one organization (Acme) and an outsider in none: who sharing rules are about. */
export async function sharingCast(engine: Engine): Promise<SharingCast> {
  const owner = await principalOf(engine, 'owner@x.test');
  const colleague = await principalOf(engine, 'colleague@x.test');
  const outsider = await principalOf(engine, 'outsider@x.test');
  const orgId = (await engine.accounts.createOrganization({ name: 'Acme', ownerUserId: owner.userId })).id;
  await engine.accounts.addMember(orgId, colleague.userId);
  return { owner, colleague, outsider, orgId };
}

const codeOf = (error: unknown): string => {
  if (error instanceof WvrError) return `${error.status} ${error.code}`;
  throw error;
};

/** "<status> <code>" of the WvrError that fn throws, or 'no error'; any other error fails the test. */
export function errorCodeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return codeOf(e);
  }
  return 'no error';
}

/** errorCodeOf for work that rejects rather than throws. */
export async function rejectionCodeOf(fn: () => unknown): Promise<string> {
  try {
    await fn();
  } catch (e) {
    return codeOf(e);
  }
  return 'no error';
}

/** Statements on the engine's own database, whichever driver it runs on; `?` marks a parameter on both. */
export interface TestSql {
  all<R = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<R[]>;
  /** The number of rows changed. */
  run(sql: string, ...params: unknown[]): Promise<number>;
}

/**
 * For tests that look at rows no port shows (what a table holds, nothing more) or set up a state no
 * service makes (a job its worker left mid-run). Through the engine's own connection (SQLite) or pool
 * (PostgreSQL), so the test runs on both drivers; keep the SQL portable.
 */
export function sqlOf(engine: Engine): TestSql {
  const store = engine.context.store as SqliteStore | PgStore;
  if (store.dialect === 'sqlite') {
    return {
      all: async <R>(sql: string, ...params: unknown[]) => store.sqlite.prepare(sql).all(...params) as R[],
      run: async (sql, ...params) => store.sqlite.prepare(sql).run(...params).changes,
    };
  }
  // node-postgres numbers its parameters: the nth `?` becomes $n.
  const numbered = (sql: string) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  return {
    all: async <R>(sql: string, ...params: unknown[]) => (await store.query(numbered(sql), params)).rows as R[],
    run: async (sql, ...params) => (await store.query(numbered(sql), params)).rowCount,
  };
}
