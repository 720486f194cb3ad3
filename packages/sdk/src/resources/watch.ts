import { WvrTimeoutError } from '../errors.js';
import { sleep } from '../transport.js';

export interface WatchOptions {
  /** Between polls; default 1000 ms. */
  intervalMs?: number;
  /** Give up waiting after this long (WvrTimeoutError); default none. The job goes on on the server. */
  timeoutMs?: number;
  /** Stop watching; the iterator (or the wait) rejects with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * Polls `read` and yields each snapshot, ending after the first one `done` accepts. Shared by
 * the crawl, search-job and plan-job watchers.
 */
export async function* watch<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, options: WatchOptions = {}): AsyncGenerator<T, T> {
  const deadline = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
  for (;;) {
    options.signal?.throwIfAborted();
    const value = await read();
    yield value;
    if (done(value)) return value;
    if (Date.now() + (options.intervalMs ?? 1000) > deadline) throw new WvrTimeoutError(what, options.timeoutMs!);
    await sleep(options.intervalMs ?? 1000, options.signal);
  }
}

/** The last snapshot of a watch: the finished job. */
export async function last<T>(snapshots: AsyncGenerator<T, T>): Promise<T> {
  let final: T | undefined;
  for await (const value of snapshots) final = value;
  return final as T;
}
