import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { manualClock, type ManualClock } from '../core/clock.js';
import { createEngine, type Engine } from '../engine.js';
import { WvrError } from '../core/errors.js';
import { createTestDatabaseSync } from '../store/pg/testing-sync.js';
import type { EngineOptions } from '../core/options.js';
import type { Principal } from '../accounts/schemas.js';
import type { SqliteStore } from '../store/sqlite/index.js';

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
 * with `WVR_TEST_STORE=postgres`, a fresh PostgreSQL database (dropped on dispose), so the engine's
 * tests run on either driver.
 */
export function openTestEngine(options: EngineOptions = {}): TestEngine {
  const dir = mkdtempSync(join(tmpdir(), 'wvr-test-'));
  const clock = manualClock('2026-03-10T12:00:00.000Z');
  const dbPath = join(dir, 'wvr.db');
  const database = process.env.WVR_TEST_STORE === 'postgres' ? createTestDatabaseSync() : undefined;
  const store = database ? { databaseUrl: database.url } : { dbPath };
  const engine = createEngine({ ...store, clock, secret: 'test-secret', validateOutputs: true, ...options });
  return {
    engine,
    clock,
    dbPath,
    store,
    async dispose() {
      await engine.close();
      database?.drop();
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

/** The engine's own SQLite connection, for tests that look at the file as it is; they run on the SQLite driver only. */
export function sqliteOf(engine: Engine): SqliteStore {
  const store = engine.context.store;
  if (store.dialect !== 'sqlite') throw new Error('this test reads the SQLite file; it runs on the SQLite driver only');
  return store as SqliteStore;
}
