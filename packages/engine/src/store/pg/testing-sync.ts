import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import pg from 'pg';
import { adminQuery, databaseUrl } from './test-server.js';

/**
 * A clean, migrated PostgreSQL database for a test engine (`openTestEngine` with WVR_TEST_STORE=postgres),
 * taken synchronously: `openTestEngine` is synchronous, as `createEngine` is.
 *
 * A database costs about a second to create and another to drop (more on a busy disk), and the pass opens
 * close to a thousand engines, so in the PostgreSQL pass (`testing/postgres-pass.ts` prepares it) databases
 * are reused: `release()` empties the one an engine used (a DELETE per table, sequences restarted: tens of
 * milliseconds) and leaves it in the spares folder, where the next engine of any test file takes it. Only
 * when no spare is free is one created, from a migrated template (no migration per database); the pass drops
 * them all at its end. Outside the pass (a test file run with WVR_TEST_STORE=postgres under another config),
 * each engine gets a database of its own, created here and dropped on release.
 */
export interface TestEngineDatabase {
  url: string;
  /** After the engine closed: the database back to the spares, emptied, or dropped. */
  release(): Promise<void>;
}

export function takeTestDatabaseSync(): TestEngineDatabase {
  const base = process.env.WVR_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const spares = process.env.WVR_TEST_PG_SPARES;
  const run = process.env.WVR_TEST_PG_RUN;
  if (!spares || !run) {
    const name = `wvr_engine_${process.pid}_${randomBytes(4).toString('hex')}`;
    adminSync(base, `CREATE DATABASE "${name}"`);
    return { url: databaseUrl(base, name), release: () => drop(base, name) };
  }
  const name = takeSpare(spares) ?? createFromTemplate(base, run);
  const url = databaseUrl(base, name);
  return {
    url,
    async release() {
      try {
        await empty(base, name, url);
      } catch {
        // A database we cannot vouch for is not handed on.
        await drop(base, name).catch(() => undefined);
        return;
      }
      writeFileSync(join(spares, name), '');
    },
  };
}

/** A spare is a file named after its database; deleting the file claims it (only one process can). */
function takeSpare(spares: string): string | undefined {
  for (const name of readdirSync(spares)) {
    try {
      unlinkSync(join(spares, name));
      return name;
    } catch {
      // Another test file took it first.
    }
  }
  return undefined;
}

function createFromTemplate(base: string, run: string): string {
  const name = `${run}_${process.pid}_${randomBytes(4).toString('hex')}`;
  adminSync(base, `CREATE DATABASE "${name}" TEMPLATE "${process.env.WVR_TEST_PG_TEMPLATE ?? `${run}_template`}"`);
  return name;
}

const drop = async (base: string, name: string) => {
  // FORCE: a pool a failed test left open must not keep the database alive.
  await adminQuery(base, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
};

/** The statement that empties a database of this schema: found once per process. */
let emptying: string | undefined;

/**
 * Every row of the public schema gone and every sequence back at its start: the database as the template
 * made it. Connections still on it (a worker process the test forked) are ended first, so none waits on it.
 */
async function empty(base: string, name: string, url: string): Promise<void> {
  await adminQuery(base, 'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    emptying ??= await emptyingStatement(client);
    await client.query(emptying);
  } finally {
    await client.end();
  }
}

/**
 * DELETE, not TRUNCATE: on these small tables TRUNCATE's new files cost ~0.6 s a database, DELETE ~20 ms.
 * A table goes after every table whose foreign keys reference it.
 */
async function emptyingStatement(client: pg.Client): Promise<string> {
  const tables = (await client.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`)).rows.map((r) => r.name);
  const references = (
    await client.query<{ child: string; parent: string }>(
      `SELECT c.relname AS child, p.relname AS parent FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace WHERE k.contype = 'f' AND n.nspname = 'public' AND c.relname <> p.relname`,
    )
  ).rows;
  const sequences = (await client.query<{ name: string }>(`SELECT sequencename AS name FROM pg_sequences WHERE schemaname = 'public'`)).rows.map((r) => r.name);
  const order: string[] = [];
  const left = new Set(tables);
  while (left.size > 0) {
    const next = [...left].filter((table) => !references.some((r) => r.parent === table && left.has(r.child)));
    if (next.length === 0) throw new Error(`foreign keys in a cycle among ${[...left].join(', ')}`);
    for (const table of next) {
      order.push(table);
      left.delete(table);
    }
  }
  return ['BEGIN', ...order.map((t) => `DELETE FROM "${t}"`), ...sequences.map((s) => `ALTER SEQUENCE "${s}" RESTART`), 'COMMIT'].join(';\n');
}

const pgPath = createRequire(import.meta.url).resolve('pg');

/** A statement run synchronously, in a short child process: node-postgres has no synchronous client. */
function adminSync(url: string, statement: string): void {
  const script = `const pg = require(${JSON.stringify(pgPath)}); const c = new pg.Client({ connectionString: process.env.URL });
c.connect().then(() => c.query(process.env.SQL)).then(() => c.end(), (e) => { console.error(e.message); process.exit(1); });`;
  const result = spawnSync(process.execPath, ['-e', script], { env: { ...process.env, URL: url, SQL: statement }, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`PostgreSQL for test engines (${statement}): ${result.stderr.trim() || `exit ${result.status}`}`);
}
