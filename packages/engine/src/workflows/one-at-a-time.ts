/**
 * Runs work for one key at a time, in the order it was asked for. Executions of one workflow go
 * through it, so a manual execute sent while the scheduled patrol runs waits for that patrol and
 * then compares with it, instead of racing it and comparing with whatever finished first.
 */
export class OneAtATime {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    const result = before.then(work, work);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    // The last one out forgets the key, so the map holds only workflows with work in flight.
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Whether work for `key` is running or waiting. */
  busy(key: string): boolean {
    return this.tails.has(key);
  }
}
