import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import type { EngineOptions } from '../core/options.js';
import type { Store } from '../store/store.js';
import { openDatabase } from '../store/sqlite/open.js';
import { createSqliteStore } from '../store/sqlite/index.js';
import { createPgStore } from '../store/pg/index.js';
import { usePostgres } from '../store/pg/testing.js';

/** A database on either driver: how engines find it (in this process and in worker processes), and a store to watch it through. */
export interface TestDatabase {
  options: Pick<EngineOptions, 'dbPath' | 'databaseUrl'>;
  /** A worker process's argument: the SQLite file or the PostgreSQL URL. */
  target: string;
  open(): Store;
}

/**
 * For tests of several engines on one database, on both drivers: `describe.each(bothDrivers('label'))`.
 * Each call of a driver's factory gives a fresh database (a new SQLite file; on PostgreSQL the test
 * file's fresh database from usePostgres, which tests of one file share, so they use distinct rows).
 */
export function bothDrivers(label: string): [string, () => TestDatabase][] {
  const dir = mkdtempSync(join(tmpdir(), `wvr-${label}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const pg = usePostgres(label);
  let files = 0;
  return [
    [
      'SQLite',
      () => {
        const dbPath = join(dir, `wvr-${++files}.db`);
        const open = () => {
          const { sqlite, db } = openDatabase(dbPath);
          return createSqliteStore(sqlite, db);
        };
        return { options: { dbPath }, target: dbPath, open };
      },
    ],
    ['PostgreSQL', () => ({ options: { databaseUrl: pg.url }, target: pg.url, open: () => createPgStore(pg.url, { max: 2 }) })],
  ];
}
