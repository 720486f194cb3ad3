import type { StorePorts } from './ports.js';

/**
 * Where the engine keeps its state. Services hold a `Store` and nothing below it: no drizzle,
 * no better-sqlite3, no SQL outside `store/`.
 *
 * `atomically` runs `fn` as one transaction: every port call made inside it (through `tx` or
 * through the store itself) commits together or not at all. Nothing network-bound belongs inside:
 * the transaction holds the database's write lock while it runs.
 */
export interface Store extends StorePorts {
  readonly dialect: 'sqlite' | 'postgres';
  atomically<T>(fn: (tx: StorePorts) => Promise<T>): Promise<T>;
  /** Resolves once the store can serve (a server database migrated and answering); rejects with why not. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** A port's async face over a driver's synchronous implementation. */
export type Async<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : T[K];
};
