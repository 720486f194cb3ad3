import PQueue from 'p-queue';
import type { HostGatePort } from '../store/ports/hosts.js';

/**
 * Per-origin pacing: at most `concurrency` requests in flight, request starts spaced by the
 * origin's delay, and a pause pushed by Retry-After or backoff that every later request of
 * that origin honours. Pacing uses the monotonic clock and real timers because it paces
 * sockets; dates (fetchedAt, cache ages, robots TTL) come from the engine clock.
 *
 * With a shared gate (the store's `hosts` port), an origin with a delay is paced across every
 * process on the store: each start is reserved there, so two workers crawling one origin space
 * their requests by its Crawl-delay together. Origins without a delay never touch the store.
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

  constructor(
    private readonly concurrency: number,
    private readonly shared?: HostGatePort,
  ) {}

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
      if (this.shared && gate.delayMs > 0) {
        // This process's pause (Retry-After, backoff) first, then the start reserved across processes.
        await sleep(gate.nextStart - monotonic(), signal);
        await sleep(await this.shared.reserve(origin, gate.delayMs), signal);
        return task();
      }
      // Reserve the slot before sleeping so concurrent callers queue up behind it.
      const start = Math.max(monotonic(), gate.nextStart);
      gate.nextStart = start + gate.delayMs;
      await sleep(start - monotonic(), signal);
      return task();
    }) as Promise<T>;
  }
}
