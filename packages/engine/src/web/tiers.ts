import { errors } from '../core/errors.js';
import type { ProxyOptions } from '../core/fetch-limits.js';
import type { ProxyTier, RetryStrategyName } from './types.js';

const TIER_ORDER: readonly ProxyTier[] = ['direct', 'premium', 'ultra_premium'];

/** What a crawl (or any job) asks for, in the request's own field names. */
export interface TierRequest {
  premium_proxy?: boolean;
  ultra_premium?: boolean;
  retry_strategy?: RetryStrategyName;
}

/** The tier a job starts at: ultra_premium beats premium_proxy; premium_only starts at premium. */
export function startTier(request: TierRequest): ProxyTier {
  if (request.ultra_premium) return 'ultra_premium';
  if (request.premium_proxy || request.retry_strategy === 'premium_only') return 'premium';
  return 'direct';
}

/** Direct needs nothing; a paid tier needs its proxy URL. */
export const isConfigured = (proxies: ProxyOptions, tier: ProxyTier) => tier === 'direct' || Boolean(proxies[tier]);

/**
 * Thrown when the job is created, before anything is fetched or charged: a paid tier without
 * a configured proxy must never quietly become a direct fetch.
 */
export function assertTiersAvailable(proxies: ProxyOptions, request: TierRequest): void {
  const tier = startTier(request);
  if (isConfigured(proxies, tier)) return;
  throw errors.validation('proxy_tier_unavailable', `The ${tier} proxy tier is not configured on this server.`, {
    suggestions: [
      `Drop ${tier === 'ultra_premium' ? 'ultra_premium' : 'premium_proxy / retry_strategy premium_only'} from the request, or`,
      `configure a proxy URL for it (EngineOptions.proxies.${tier}, or WVR_PROXY_${tier.toUpperCase()} for the server).`,
    ],
    details: { tier },
  });
}

/**
 * The tiers one fetch may try, in order. `auto` climbs to every configured tier above the
 * start; `none` and `premium_only` stay where they start.
 */
export function tierPlan(proxies: ProxyOptions, start: ProxyTier, strategy: RetryStrategyName): ProxyTier[] {
  if (strategy !== 'auto') return [start];
  return TIER_ORDER.slice(TIER_ORDER.indexOf(start)).filter((tier, i) => i === 0 || isConfigured(proxies, tier));
}

const BLOCK_WORDS = /captcha|access denied|are you a robot|not a robot|unusual traffic|request blocked|attention required|bot detection/i;

/** An answer that says "you were recognised as a bot" rather than "this page is missing". */
export function isBlockLike(status: number, body: string | null): boolean {
  if (status !== 403 && status !== 429 && status !== 503) return false;
  return body !== null && BLOCK_WORDS.test(body.slice(0, 20_000));
}
