import type { Agent, Dispatcher, ProxyAgent } from 'undici';
import { undici } from '../core/undici.js';
import type { AddressPolicy } from './address-policy.js';
import type { FetchLimits, ProxyOptions } from '../core/fetch-limits.js';
import { isConfigured } from './tiers.js';
import type { ProxyTier } from './types.js';

const KEEP_ALIVE_MS = 10_000;

/**
 * One keep-alive pool per tier. The direct pool resolves through the address policy inside
 * the socket's connect, so the address checked is the address connected to. Proxy pools
 * connect to the operator's proxy (trusted, often on a private network) and forward plain
 * http in absolute form, so the proxy can mark and log each request.
 */
export class Dispatchers {
  /** Made on the first fetch, like the proxy pools (see core/undici.ts). */
  private direct: Agent | undefined;
  private readonly proxied = new Map<ProxyTier, ProxyAgent>();

  constructor(
    private readonly policy: AddressPolicy,
    private readonly allowPrivateNetwork: boolean,
    private readonly limits: FetchLimits,
    private readonly proxies: ProxyOptions,
  ) {}

  isConfigured(tier: ProxyTier): boolean {
    return isConfigured(this.proxies, tier);
  }

  /** Null for a tier without a configured proxy: the caller must refuse, never go direct. */
  forTier(tier: ProxyTier): Dispatcher | null {
    if (tier === 'direct') {
      const timeout = this.limits.connectTimeoutMs;
      return (this.direct ??= new (undici().Agent)({
        keepAliveTimeout: KEEP_ALIVE_MS,
        connections: this.limits.perHostConcurrency,
        connect: this.allowPrivateNetwork ? { timeout } : { timeout, lookup: this.policy.lookup },
      }));
    }
    const uri = this.proxies[tier];
    if (!uri) return null;
    let agent = this.proxied.get(tier);
    if (!agent) {
      agent = new (undici().ProxyAgent)({ uri, proxyTunnel: false, keepAliveTimeout: KEEP_ALIVE_MS, connect: { timeout: this.limits.connectTimeoutMs } });
      this.proxied.set(tier, agent);
    }
    return agent;
  }

  async close(): Promise<void> {
    await Promise.all([this.direct?.close(), ...[...this.proxied.values()].map((agent) => agent.close())]);
  }
}
