import { describe, expect, it } from 'vitest';
import { RETRY_POLICY, retryDelay } from './backoff.js';

describe('retry schedule', () => {
  it('doubles from 30 s, caps at one hour and stops after 12 attempts', () => {
    const delays = Array.from({ length: RETRY_POLICY.maxAttempts }, (_, i) => retryDelay(i + 1));
    expect(delays).toEqual([30e3, 60e3, 120e3, 240e3, 480e3, 960e3, 1920e3, 3600e3, 3600e3, 3600e3, 3600e3, null]);
    expect(delays.reduce<number>((sum, d) => sum + (d ?? 0), 0)).toBe(18_210_000);
  });
});
