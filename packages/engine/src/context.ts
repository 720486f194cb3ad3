import type { Store } from './store/store.js';
import type { Clock } from './core/clock.js';
import type { RandomSource } from './core/ids.js';
import type { ResolvedOptions } from './core/options.js';

/** What every service is built from. Services get other capabilities by constructor argument. */
export interface EngineContext {
  /** The ports every service reads and writes through, on SQLite or PostgreSQL. */
  store: Store;
  clock: Clock;
  random: RandomSource;
  options: ResolvedOptions;
}
