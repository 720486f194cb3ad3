import type { EngineOptions } from '../core/options.js';

/** A worker process's database argument (a SQLite file or a PostgreSQL URL) as engine options. */
export function storeOptionsOf(target: string): Pick<EngineOptions, 'dbPath' | 'databaseUrl'> {
  return /^postgres(ql)?:\/\//.test(target) ? { databaseUrl: target } : { dbPath: target };
}
