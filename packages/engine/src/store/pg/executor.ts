import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import type { PgDb } from './client.js';
import * as schema from './schema.js';
import { inTransaction } from './tx.js';

interface Tx {
  client: pg.PoolClient;
  /** Accounts this transaction already holds locked. */
  locked: Set<string>;
}

/**
 * PostgreSQL's side of `Store.atomically`: where SQLite has one writer (TxGate + BEGIN IMMEDIATE),
 * PostgreSQL has many, so a transaction holds one pooled connection and the port calls made inside
 * it (found through AsyncLocalStorage, so no handle is threaded) run on that connection. Nested
 * calls join the outer transaction. Outside a transaction, each call runs on the pool.
 */
export class PgExecutor {
  private readonly current = new AsyncLocalStorage<Tx>();

  /**
   * drizzle over whichever connection is current: the open transaction's, else the pool. Drivers
   * write their statements with it and they join `atomically` like `query` does. (drizzle's own
   * `transaction()` is never used on it: the executor owns transactions.)
   */
  readonly db: PgDb;

  /** The schema's preparation (migration) until it has succeeded once; then unset. */
  private prepare: (() => Promise<void>) | undefined;
  private preparing: Promise<void> | undefined;

  /**
   * `prepare` migrates the schema when the pool was made without waiting for it (an engine is created
   * synchronously): it runs before the first statement, which waits for it. A failure (the database
   * not up yet) is that statement's error, and the next statement tries again.
   */
  constructor(
    readonly pool: pg.Pool,
    prepare?: () => Promise<void>,
  ) {
    this.prepare = prepare;
    const current: Pick<pg.Pool, 'query'> = {
      query: ((...args: Parameters<pg.Pool['query']>) => {
        const waiting = this.prepared();
        return waiting ? waiting.then(() => this.connection().query(...args)) : this.connection().query(...args);
      }) as pg.Pool['query'],
    };
    this.db = drizzle({ client: current as pg.Pool, schema });
  }

  /** Resolves when the database is migrated and answering; rejects with why it is not. */
  async ready(): Promise<void> {
    await this.prepared();
    await this.pool.query('SELECT 1');
  }

  /** Undefined when nothing is left to wait for (the common case stays free of an extra await). */
  private prepared(): Promise<void> | undefined {
    const prepare = this.prepare;
    if (!prepare) return undefined;
    this.preparing ??= prepare().then(
      () => {
        this.prepare = undefined;
        this.preparing = undefined;
      },
      (error: unknown) => {
        this.preparing = undefined;
        throw error;
      },
    );
    return this.preparing;
  }

  get inTransaction(): boolean {
    return this.current.getStore() !== undefined;
  }

  async atomically<T>(fn: () => Promise<T>): Promise<T> {
    if (this.inTransaction) return fn();
    await this.prepared();
    return inTransaction(this.pool, (client) => this.current.run({ client, locked: new Set() }, fn));
  }

  /** The open transaction's connection, for code that needs the raw client; undefined outside one. */
  client(): pg.PoolClient | undefined {
    return this.current.getStore()?.client;
  }

  async query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, params: unknown[] = []): Promise<pg.QueryResult<R>> {
    await this.prepared();
    return this.connection().query<R>(text, params);
  }

  private connection(): pg.Pool | pg.PoolClient {
    return this.current.getStore()?.client ?? this.pool;
  }

  /**
   * Locks the account (its `users` row, FOR UPDATE) until the transaction ends, so the balance read
   * next and the debit written after it cannot interleave with another server's. A separate statement
   * on purpose: under READ COMMITTED each statement sees what was committed when it began, so reads
   * must start after the lock is granted. An account with no users row is locked by an advisory lock
   * on its id instead. Outside a transaction there is nothing to protect: a no-op.
   */
  async lockAccount(userId: string): Promise<void> {
    const tx = this.current.getStore();
    if (!tx || tx.locked.has(userId)) return;
    const { rowCount } = await tx.client.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [userId]);
    if (rowCount === 0) await tx.client.query(`SELECT pg_advisory_xact_lock(hashtextextended('wvr:account:' || $1, 0))`, [userId]);
    tx.locked.add(userId);
  }
}
