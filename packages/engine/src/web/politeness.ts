import PQueue from 'p-queue';

/**
 * Per-origin pacing: at most `concurrency` requests in flight, request starts spaced by the
 * origin's delay, and a pause pushed by Retry-After or backoff that every later request of
 * that origin honours. Pacing uses the monotonic clock and real timers because it paces
 * sockets; dates (fetchedAt, cache ages, robots TTL) come from the engine clock.
 */
interface Gate {
  queue: PQueue;
  nextStart: number;
  delayMs: number;
}

const monotonic = () => performance.now();
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

export class Politeness {
  private readonly gates = new Map<string, Gate>();

  constructor(private readonly concurrency: number) {}

  private gate(origin: string): Gate {
    let gate = this.gates.get(origin);
    if (!gate) {
      gate = { queue: new PQueue({ concurrency: this.concurrency }), nextStart: 0, delayMs: 0 };
      this.gates.set(origin, gate);
    }
    return gate;
  }

  setDelay(origin: string, delayMs: number): void {
    this.gate(origin).delayMs = delayMs;
  }

  /** Nothing starts on this origin before `ms` from now (Retry-After, backoff). */
  pause(origin: string, ms: number): void {
    const gate = this.gate(origin);
    gate.nextStart = Math.max(gate.nextStart, monotonic() + ms);
  }

  /** Runs `task` in the origin's queue once its slot has come. */
  run<T>(origin: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const gate = this.gate(origin);
    return gate.queue.add(async () => {
      // Reserve the slot before sleeping so concurrent callers queue up behind it.
      const start = Math.max(monotonic(), gate.nextStart);
      gate.nextStart = start + gate.delayMs;
      await sleep(start - monotonic(), signal);
      return task();
    }) as Promise<T>;
  }
}
