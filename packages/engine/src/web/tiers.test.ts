import { afterEach, describe, expect, it } from 'vitest';
import { startProxy, type Proxy } from '@wvr/testkit';
import { isWvrError } from '../core/errors.js';
import { openLab, type Lab } from './testing.js';

let lab: Lab | undefined;
const proxies: Proxy[] = [];
afterEach(async () => {
  await lab?.dispose();
  lab = undefined;
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
});

async function proxy(name: string): Promise<Proxy> {
  const started = await startProxy({ name });
  proxies.push(started);
  return started;
}

describe('proxy tiers', () => {
  it('sends a premium fetch through the premium proxy', async () => {
    const premium = await proxy('premium');
    lab = await openLab({}, { proxies: { premium: premium.url } });
    const page = await lab.engine.web.fetch({ url: `${lab.origin}/target`, tier: 'premium', retryStrategy: 'none' });
    expect(page.status).toBe(200);
    expect(page.tier).toBe('premium');
    expect(premium.log.map((entry) => entry.target)).toContain(`${lab.origin}/target`);
  });

  it('escalates a block page from direct to premium under retry_strategy auto', async () => {
    const premium = await proxy('premium');
    lab = await openLab({}, { proxies: { premium: premium.url } });
    const page = await lab.engine.web.fetch({ url: `${lab.origin}/blocked`, retryStrategy: 'auto' });
    expect(page.error).toBeUndefined();
    expect(page.tier).toBe('premium');
    expect(page.body).toContain('Welcome, residential visitor');
    expect(lab.hits('/blocked').map((entry) => entry.status)).toEqual([403, 200]);
    expect(premium.log.filter((entry) => entry.target.endsWith('/blocked'))).toHaveLength(1);
  });

  it('skips an unconfigured tier when escalating, and never goes direct for it', async () => {
    const ultra = await proxy('ultra');
    lab = await openLab({}, { proxies: { ultra_premium: ultra.url } });
    const page = await lab.engine.web.fetch({ url: `${lab.origin}/blocked` });
    expect(page.tier).toBe('ultra_premium');
    expect(page.status).toBe(200);
    expect(lab.hits('/blocked')).toHaveLength(2);
  });

  it('reports the block and stays direct under retry_strategy none', async () => {
    const premium = await proxy('premium');
    lab = await openLab({}, { proxies: { premium: premium.url } });
    const page = await lab.engine.web.fetch({ url: `${lab.origin}/blocked`, retryStrategy: 'none' });
    expect(page.error?.code).toBe('blocked');
    expect(page.status).toBe(403);
    expect(page.tier).toBe('direct');
    expect(premium.log).toHaveLength(0);
  });

  it('never escalates a plain 404', async () => {
    const premium = await proxy('premium');
    lab = await openLab({}, { proxies: { premium: premium.url } });
    const page = await lab.engine.web.fetch({ url: `${lab.origin}/status/404` });
    expect(page.error?.code).toBe('http_error');
    expect(premium.log).toHaveLength(0);
  });
});

describe('an unconfigured tier', () => {
  it('is refused with 400 proxy_tier_unavailable when the job is created', async () => {
    lab = await openLab();
    const web = lab.engine.web;
    for (const request of [{ premium_proxy: true }, { ultra_premium: true }, { retry_strategy: 'premium_only' as const }]) {
      let caught: unknown;
      try {
        web.assertTiersAvailable(request);
      } catch (error) {
        caught = error;
      }
      expect(isWvrError(caught) && caught.status === 400 && caught.code === 'proxy_tier_unavailable').toBe(true);
    }
    expect(() => web.assertTiersAvailable({ retry_strategy: 'auto' })).not.toThrow();
  });

  it('comes back as an error value from fetch without touching the network', async () => {
    lab = await openLab();
    const page = await lab.engine.web.fetch({ url: `${lab.origin}/target`, tier: 'ultra_premium' });
    expect(page.error?.code).toBe('proxy_tier_unavailable');
    expect(lab.log).toHaveLength(0);
  });
});
