import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine } from '../engine.js';
import { HOUR } from '../core/clock.js';
import { WvrError } from '../core/errors.js';
import { openTestEngine, principalOf, type TestEngine } from '../testing/engine.js';
import type { Principal } from './schemas.js';

let t: TestEngine;
let principal: Principal;
beforeEach(async () => {
  t = openTestEngine();
  t.clock.set('2026-03-10T12:00:00Z');
  principal = await principalOf(t.engine, 'a@x.test');
});
afterEach(() => t.dispose());

const refusal = async (attempt: Promise<unknown>): Promise<WvrError> => {
  try {
    await attempt;
  } catch (e) {
    if (e instanceof WvrError) return e;
    throw e;
  }
  throw new Error('expected a refusal');
};

describe('rate limits', async () => {
  it('allows the free plan 100 requests an hour, then answers 429 with Retry-After until the hour turns', async () => {
    for (let i = 0; i < 100; i++) expect((await t.engine.rateLimits.consume(principal)).remaining).toBe(99 - i);
    t.clock.advance(20 * 60 * 1000);
    const error = await refusal(t.engine.rateLimits.consume(principal));
    expect(error.status).toBe(429);
    expect(error.retryAfter).toBe(40 * 60);
    expect(error.details).toMatchObject({ limit: 100, remaining: 0, window: 'hour' });
    t.clock.advance(40 * 60 * 1000);
    expect(await t.engine.rateLimits.consume(principal)).toMatchObject({ limit: 100, remaining: 99 });
  });

  it('enforces the daily limit across hours', async () => {
    for (let hour = 0; hour < 10; hour++) {
      for (let i = 0; i < 100; i++) await t.engine.rateLimits.consume(principal);
      t.clock.advance(HOUR);
    }
    // 22:00 UTC: ten full hours used, the hourly window is fresh, the day is spent.
    const error = await refusal(t.engine.rateLimits.consume(principal));
    expect(error.details).toMatchObject({ limit: 1000, window: 'day' });
  });

  it('gives higher plans their own limits', async () => {
    const pro = { ...principal, plan: 'pro' as const };
    expect(await t.engine.rateLimits.consume(pro)).toMatchObject({ limit: 10_000, remaining: 9_999 });
  });

  it('limits intent assessment to 10 an hour on its own bucket', async () => {
    for (let i = 0; i < 10; i++) await t.engine.rateLimits.consume(principal, 'intent_assessment');
    expect((await refusal(t.engine.rateLimits.consume(principal, 'intent_assessment'))).code).toBe(
      'intent_assessment_rate_limited',
    );
    expect((await t.engine.rateLimits.consume(principal)).remaining).toBe(99);
  });

  it('shares counters between two engines on one database file', async () => {
    const other = createEngine({ ...t.store, clock: t.clock, secret: 'test-secret' });
    try {
      for (let i = 0; i < 50; i++) {
        await t.engine.rateLimits.consume(principal);
        await other.rateLimits.consume(principal);
      }
      expect((await refusal(other.rateLimits.consume(principal))).status).toBe(429);
    } finally {
      await other.close();
    }
  });
});
