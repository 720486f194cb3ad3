import type Database from 'better-sqlite3';
import type { Db } from './store/sqlite/open.js';
import type { Store } from './store/store.js';
import type { Clock } from './core/clock.js';
import type { RandomSource } from './core/ids.js';
import type { ResolvedOptions } from './core/options.js';

/** What every service is built from. Services get other capabilities by constructor argument. */
export interface EngineContext {
  /** The ports every service reads and writes through. `db` and `sqlite` are the crawl's until it uses the store too. */
  store: Store;
  db: Db;
  sqlite: Database.Database;
  clock: Clock;
  random: RandomSource;
  options: ResolvedOptions;
}
