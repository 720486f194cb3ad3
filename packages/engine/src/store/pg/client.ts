import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import * as schema from './schema.js';

export type PgDb = NodePgDatabase<typeof schema>;

export interface PgDatabase {
  pool: pg.Pool;
  db: PgDb;
  close(): Promise<void>;
}

/** Any fixed number: every process migrating one database takes the same advisory lock. */
const MIGRATION_LOCK = 0x77767201;

/**
 * Connects to PostgreSQL, applies the committed migrations (`drizzle-pg/`) and returns drizzle
 * over a pool. Several servers and workers start at once against one database: the migration runs
 * under a session advisory lock, so one applies it and the others find it applied.
 */
export async function openPostgres(url: string, options: { max?: number } = {}): Promise<PgDatabase> {
  const pool = createPool(url, options);
  try {
    await migratePostgres(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return { pool, db: drizzle(pool, { schema }), close: () => pool.end() };
}

/** A pool that connects on first use: creating it does no I/O (an engine is created synchronously). */
export function createPool(url: string, options: { max?: number } = {}): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, types: { getTypeParser } });
  // An idle client whose server went away emits 'error' on the pool; the next query reconnects.
  pool.on('error', () => undefined);
  return pool;
}

/** Applies the committed migrations under the advisory lock (see openPostgres). */
export async function migratePostgres(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await migrate(drizzle(client, { schema }), { migrationsFolder: migrationsFolder() });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}

/**
 * bigint columns hold ms instants, sequence numbers and row ids, all far below 2^53: read them as
 * numbers, as SQLite's driver does, instead of node-postgres's default strings.
 */
const getTypeParser = ((oid: number, format?: 'text' | 'binary') =>
  oid === pg.types.builtins.INT8 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser;

/** The migrations ship beside the package: `drizzle-pg/` next to `src/` (dev) or `dist/` (published). */
function migrationsFolder(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'drizzle-pg');
    if (existsSync(join(candidate, 'meta', '_journal.json'))) return candidate;
    dir = dirname(dir);
  }
  throw new Error('wvr: the PostgreSQL migrations folder (drizzle-pg) was not found beside @wvr/engine');
}
