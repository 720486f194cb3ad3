import type { EngineContext } from '../context.js';
import { DAY, HOUR } from '../core/clock.js';
import { errors } from '../core/errors.js';
import type { Plan, Principal } from './schemas.js';

export type RateLimitBucket = 'requests' | 'intent_assessment';

export const PLAN_RATE_LIMITS: Record<Plan, { hour: number; day: number }> = {
  free: { hour: 100, day: 1_000 },
  developer: { hour: 2_500, day: 25_000 },
  pro: { hour: 10_000, day: 100_000 },
  // The owner of the data folder is not throttled by its own engine.
  local: { hour: 1_000_000, day: 10_000_000 },
};

/** The spec allows 10 intent assessments per hour per user, whatever the plan. */
const INTENT_ASSESSMENT_LIMIT = { hour: 10, day: Number.POSITIVE_INFINITY };

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Epoch seconds at which the tighter of the windows resets. */
  reset: number;
}

const WINDOWS = [
  { name: 'hour', ms: HOUR },
  { name: 'day', ms: DAY },
] as const;

/**
 * Fixed hourly and daily windows counted in the store, so every engine process on one database
 * enforces the same limits. A refused request is not counted.
 */
export class RateLimitService {
  constructor(private readonly ctx: EngineContext) {}

  async consume(principal: Principal, bucket: RateLimitBucket = 'requests'): Promise<RateLimitState> {
    const limits = bucket === 'intent_assessment' ? INTENT_ASSESSMENT_LIMIT : PLAN_RATE_LIMITS[principal.plan];
    const now = this.ctx.clock.now().getTime();
    const windows = WINDOWS.map(({ name, ms }) => {
      const start = Math.floor(now / ms) * ms;
      return { window: name, start, limit: limits[name], reset: Math.ceil((start + ms) / 1000) };
    });
    const { counted, used } = await this.ctx.store.rateLimits.count(principal.userId, bucket, windows, now - 2 * DAY);
    const states = windows.map((w, i) => ({ ...w, used: used[i]! }));
    if (!counted) {
      const exceeded = states.find((s) => s.used >= s.limit)!;
      throw errors.rateLimited(Math.max(1, exceeded.reset - Math.floor(now / 1000)), {
        code: bucket === 'intent_assessment' ? 'intent_assessment_rate_limited' : 'rate_limit_exceeded',
        details: { limit: exceeded.limit, remaining: 0, reset: exceeded.reset, window: exceeded.window, bucket },
      });
    }
    return states
      .filter((s) => Number.isFinite(s.limit))
      .map((s) => ({ limit: s.limit, remaining: s.limit - s.used - 1, reset: s.reset }))
      .sort((a, b) => a.remaining - b.remaining || a.reset - b.reset)[0]!;
  }
}
