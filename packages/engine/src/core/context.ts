import type Database from 'better-sqlite3';
import type { Db } from '../db/client.js';
import type { Clock } from './clock.js';
import type { RandomSource } from './ids.js';
import type { ResolvedOptions } from './options.js';

/** What every service is built from. Services get other capabilities by constructor argument. */
export interface EngineContext {
  db: Db;
  sqlite: Database.Database;
  clock: Clock;
  random: RandomSource;
  options: ResolvedOptions;
}
