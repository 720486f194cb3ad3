/**
 * Politeness shared by every process on one store: two workers crawling one origin space their
 * requests by its delay together, not each on its own.
 */
export interface HostGatePort {
  /**
   * Reserves the next request start at `origin`, `delayMs` after the one reserved before it by any
   * process (or now, when that has passed), and answers how many ms to wait before starting.
   */
  reserve(origin: string, delayMs: number): Promise<number>;
}
