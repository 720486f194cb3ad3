import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLab, type Lab } from './testing.js';
import { AddressPolicy } from './address-policy.js';

describe('the SSRF guard without allowPrivateNetwork', () => {
  let lab: Lab;
  beforeAll(async () => {
    lab = await openLab({}, { allowPrivateNetwork: false });
  });
  afterAll(() => lab.dispose());

  it.each(['127.0.0.1', '10.0.0.1', '169.254.169.254', '[::1]', '100.64.0.1', '0.0.0.0', '[fd00::1]'])('refuses %s', async (host) => {
    const page = await lab.engine.web.fetch({ url: `http://${host}:${new URL(lab.origin).port}/target` });
    expect(page.error?.code).toBe('ssrf_blocked');
    expect(page.status).toBe(0);
  });

  it('refuses localhost as loopback, reported as ssrf_blocked rather than as a robots.txt refusal', async () => {
    for (const host of ['localhost', 'api.localhost', 'LOCALHOST.']) {
      const page = await lab.engine.web.fetch({ url: `http://${host}:${new URL(lab.origin).port}/target` });
      expect(page.error?.code, host).toBe('ssrf_blocked');
      expect(page.error?.message).toMatch(/loopback/);
    }
    expect(lab.log).toHaveLength(0);
  });
});

describe('the SSRF guard on redirects', () => {
  let lab: Lab;
  beforeAll(async () => {
    // Only the lab's own address is exempt, so the redirect targets below meet the guard.
    lab = await openLab({}, { allowPrivateNetwork: false, fetchLimits: { allowedPrivateAddresses: ['127.0.0.1'], connectTimeoutMs: 2_000 } });
  });
  afterAll(() => lab.dispose());

  it('reaches an exempt address', async () => {
    const page = await lab.engine.web.fetch({ url: `${lab.origin}/target` });
    expect(page.status).toBe(200);
  });

  it.each(['http://10.0.0.1/admin', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]/'])('refuses a redirect to %s before connecting', async (target) => {
    const page = await lab.engine.web.fetch({ url: `${lab.origin}/redirect/to?url=${encodeURIComponent(target)}` });
    expect(page.error?.code).toBe('ssrf_blocked');
    expect(page.error?.message).toMatch(/not a public address/);
    expect(page.redirects).toHaveLength(1);
  });
});

describe('AddressPolicy', () => {
  const policy = new AddressPolicy(false, ['10.9.0.0/16']);
  it.each(['8.8.8.8', '2606:4700::1111', '10.9.3.4'])('allows %s', (address) => expect(policy.isAllowed(address)).toBe(true));
  it.each(['192.168.1.1', '172.16.0.1', '::ffff:127.0.0.1', 'fe80::1', '100.127.255.255', '10.8.0.1'])('refuses %s', (address) =>
    expect(policy.isAllowed(address)).toBe(false),
  );
});
