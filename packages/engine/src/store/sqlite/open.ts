import { accessSync, constants, existsSync, mkdirSync, statfsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import * as schema from './schema.js';
import { storageProblem } from '../../core/storage.js';

export type Db = BetterSQLite3Database<typeof schema>;

export interface Database_ {
  sqlite: Database.Database;
  db: Db;
}

/**
 * Opens (creating if needed) the SQLite file, applies the committed migrations and
 * returns drizzle over it. `:memory:` gives a private database for unit tests.
 */
export function openDatabase(path: string): Database_ {
  if (path !== ':memory:') prepareFolder(dirname(path));
  const sqlite = new Database(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma(`wal_autocheckpoint = ${logPages(path === ':memory:' ? Infinity : freeBytes(dirname(path)))}`);
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder: migrationsFolder() });
  return { sqlite, db };
}

/**
 * How many pages (4 KB each) the write-ahead log holds before SQLite copies it into the database file: 10,000 (40 MB),
 * not SQLite's default 1,000, where the disk has room. A crawl commits every few pages, and each commit rewrites the
 * same few dozen index pages (the frontier's, the search index's, the crawl's row): between two copies at 4 MB, most of
 * the log is those pages over and over, and each copy writes them into the file again. On a 1,000-page crawl of the
 * PostgreSQL manual the log took 56,000 pages and the copies 22,000 more, for a 40 MB file; at 40 MB a copy, a crawl
 * stores 5 to 14 % more pages a second (docs/benchmarks.md). The log file stays at about that size between copies.
 *
 * The log never takes more than a quarter of the room the disk had when the file was opened: a log that cannot grow to
 * its copy size is never copied, and on a nearly full disk the crawl would stall where 4 MB at a time would finish.
 * And after a full disk, SQLite's default again (`fallBackOnFullDisk`).
 */
export function logPages(freeBytes: number): number {
  return Math.max(LEAST_LOG_PAGES, Math.min(MOST_LOG_PAGES, Math.floor(freeBytes / 4 / 4_096)));
}
const MOST_LOG_PAGES = 10_000;
/** SQLite's own default. */
const LEAST_LOG_PAGES = 1_000;

/**
 * Called with a transaction's error (the SQLite store's `atomically`): after a full disk, the log is copied at SQLite's
 * default size again. It may have been filling towards 40 MB, and once a few MB are freed the first commit that fits
 * must copy it into the file and start it over, not grow it until the disk is full again. Rethrows the error.
 */
export function fallBackOnFullDisk(sqlite: Database.Database, error: unknown): never {
  if (storageProblem(error) === 'full' && sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${LEAST_LOG_PAGES}`);
  throw error;
}

/** Free bytes for this process on the disk holding `dir`; none known, none assumed. */
function freeBytes(dir: string): number {
  try {
    const { bavail, bsize } = statfsSync(dir);
    return bavail * bsize;
  } catch {
    return 0;
  }
}

/**
 * Creates the data folder, or says plainly why it cannot: on a read-only file system Node's
 * recursive mkdir can report a misleading `ENOENT ... mkdir`, so the nearest existing folder is
 * checked for write access and named in the error.
 */
function prepareFolder(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
    let existing = dir;
    while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
    let reason = `creating it inside ${existing} failed (${code})`;
    try {
      accessSync(existing, constants.W_OK);
    } catch (denied) {
      const deniedCode = (denied as NodeJS.ErrnoException).code;
      reason = `${existing} is not writable (${deniedCode === 'EROFS' ? 'read-only file system' : deniedCode ?? code})`;
    }
    throw new Error(`wvr: cannot create or write the data folder ${dir}: ${reason}. Choose a writable folder (wvr --data, WVR_DATA_DIR, createEngine({ dataDir })).`, {
      cause: error,
    });
  }
}

/** The migrations ship beside the package: `drizzle/` next to `src/` (dev) or `dist/` (published). */
function migrationsFolder(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    const candidate = join(dir, 'drizzle');
    if (existsSync(join(candidate, 'meta', '_journal.json'))) return candidate;
    dir = dirname(dir);
  }
  throw new Error('wvr: the drizzle migrations folder was not found beside @wvr/engine');
}
