import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import * as schema from './schema.js';

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
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder: migrationsFolder() });
  return { sqlite, db };
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
