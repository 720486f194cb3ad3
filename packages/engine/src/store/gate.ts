import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * One writer at a time over one connection, across awaits.
 *
 * A transaction on a single SQLite connection spans awaits (port calls are async), so while it is
 * open any other statement on that connection would land inside it and commit or roll back with
 * it. The gate queues everything that is not part of the open transaction until it ends; code
 * running inside the transaction (tracked with AsyncLocalStorage, so no handle needs threading)
 * runs at once. With no transaction open, a statement runs at once too: better-sqlite3 is
 * synchronous, so a single statement is atomic in the event loop.
 */
export class TxGate {
  private readonly inside = new AsyncLocalStorage<object>();
  private tail: Promise<unknown> = Promise.resolve();
  private open = 0;
  /** The open transaction's token; undefined between transactions. */
  private current: object | undefined;

  /**
   * True when the caller runs inside this gate's open transaction. The token, not mere presence in
   * the storage: work started from inside a transaction (a timer, a job woken by an enqueue) keeps its
   * async context after the transaction ends, and must not take itself for part of a later one (it
   * would skip BEGIN and run unguarded inside another caller's transaction).
   */
  get inTransaction(): boolean {
    const token = this.inside.getStore();
    return token !== undefined && token === this.current;
  }

  /** Runs one statement (or a few, synchronously): now, or after the open transaction ends. */
  run<T>(fn: () => T): Promise<T> {
    if (this.open === 0 || this.inTransaction) {
      try {
        return Promise.resolve(fn());
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return this.enqueue(async () => fn());
  }

  /**
   * Runs `body` as the only writer: `begin` before it, `commit` after, `rollback` when it throws.
   * Nested calls join the outer transaction (callers compose without knowing who opened it).
   */
  exclusive<T>(body: () => Promise<T>, hooks: { begin(): void | Promise<void>; commit(): void; rollback(): void }): Promise<T> {
    if (this.inTransaction) return body();
    return this.enqueue(async () => {
      this.open++;
      const token = {};
      try {
        await hooks.begin();
        this.current = token;
        const result = await this.inside.run(token, body);
        hooks.commit();
        return result;
      } catch (error) {
        hooks.rollback();
        throw error;
      } finally {
        this.current = undefined;
        this.open--;
      }
    });
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
