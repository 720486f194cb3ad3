import { SECOND, HOUR } from '../core/clock.js';

/** The retry schedule, documented in docs/webhooks.md; change both together. */
export const RETRY_POLICY = {
  /** Delay after the first failed attempt. */
  baseDelayMs: 30 * SECOND,
  /** Each later failure doubles the delay, up to this cap. */
  maxDelayMs: HOUR,
  /** Attempts in all (the first one included) before a delivery is marked failed. */
  maxAttempts: 12,
} as const;

/** Milliseconds to wait after `attempts` failed attempts; null when no attempt is left. */
export function retryDelay(attempts: number, policy = RETRY_POLICY): number | null {
  if (attempts >= policy.maxAttempts) return null;
  return Math.min(policy.baseDelayMs * 2 ** (attempts - 1), policy.maxDelayMs);
}
