import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../engine.js';
import { expectSpaced, openLab, type Lab } from './testing.js';

let lab: Lab | undefined;
afterEach(async () => {
  await lab?.dispose();
  lab = undefined;
});

const gaps = (times: number[]) => times.slice(1).map((t, i) => t - times[i]!);
/** Timers never fire early, but the two clocks read a hair apart. */
const SLACK_MS = 3;

describe('robots.txt', () => {
  it('refuses a disallowed path without requesting it', async () => {
    lab = await openLab();
    const page = await lab.engine.web.fetch({ url: `${lab.origin}/private/secret` });
    expect(page.error?.code).toBe('robots_disallowed');
    expect(lab.hits('/private/secret')).toHaveLength(0);
  });

  it('fetches a disallowed path only when the caller explicitly ignores robots', async () => {
    lab = await openLab();
    const page = await lab.engine.web.fetch({ url: `${lab.origin}/private/secret`, ignoreRobots: true });
    expect(page.status).toBe(200);
  });

  it('fetches robots.txt once per origin however many pages are asked for', async () => {
    lab = await openLab();
    await Promise.all(['/target', '/gzip', '/brotli', '/data.json'].map((path) => lab!.engine.web.fetch({ url: lab!.origin + path })));
    expect(lab.hits('/robots.txt')).toHaveLength(1);
  });

  it('tells the crawler what robots.txt says about a URL', async () => {
    lab = await openLab({ crawlDelaySeconds: 2 });
    const web = lab.engine.web;
    await expect(web.robots(`${lab.origin}/private/x`)).resolves.toMatchObject({ allowed: false, crawlDelaySeconds: 2 });
    await expect(web.robots(`${lab.origin}/private/open`)).resolves.toMatchObject({ allowed: true });
    await expect(web.robots(`${lab.origin}/target`)).resolves.toMatchObject({ allowed: true });
  });

  it('spaces requests to one origin by its Crawl-delay, measured on the server', async () => {
    lab = await openLab({ crawlDelaySeconds: 0.4 });
    const paths = ['/target?n=1', '/target?n=2', '/target?n=3', '/target?n=4'];
    await Promise.all(paths.map((path) => lab!.engine.web.fetch({ url: lab!.origin + path })));
    const times = lab.log.filter((entry) => entry.path.startsWith('/target?n=')).map((entry) => entry.at);
    expect(times).toHaveLength(4);
    expectSpaced(times, 400);
  });
});

describe('politeness across processes', () => {
  it('two engines on one store space their requests to one origin by its Crawl-delay together', async () => {
    lab = await openLab({ crawlDelaySeconds: 0.3 });
    // A second engine on the same file: its own fetcher and pacing, as a second worker process has.
    const other = createEngine({ ...lab.store, allowPrivateNetwork: true, secret: 'test-secret' });
    try {
      const paths = [1, 2, 3, 4, 5, 6].map((n) => `/target?n=${n}`);
      await Promise.all(paths.map((path, i) => (i % 2 === 0 ? lab!.engine : other).web.fetch({ url: lab!.origin + path })));
      const times = lab.log.filter((entry) => entry.path.startsWith('/target?n=')).map((entry) => entry.at);
      expect(times).toHaveLength(6);
      expectSpaced(times, 300);
    } finally {
      await other.close();
    }
  });
});

describe('429 and 503', () => {
  it('waits for Retry-After before asking again, then returns the page', async () => {
    lab = await openLab();
    const page = await lab.engine.web.fetch({ url: `${lab.origin}/flaky?key=a&retry=1&times=2` });
    expect(page.status).toBe(200);
    expect(page.body).toContain('Answered after 2 refusals');
    const times = lab.hits('/flaky?key=a&retry=1&times=2').map((entry) => entry.at);
    expect(times).toHaveLength(3);
    for (const gap of gaps(times)) expect(gap).toBeGreaterThanOrEqual(1000 - SLACK_MS);
  });

  it('backs off exponentially when no Retry-After is given and stops after maxRetries', async () => {
    lab = await openLab({}, { fetchLimits: { maxRetries: 2, backoffBaseMs: 100 } });
    const page = await lab.engine.web.fetch({ url: `${lab.origin}/status/503?retry=none`, retryStrategy: 'none' });
    expect(page.status).toBe(503);
    expect(page.error?.code).toBe('http_error');
    const times = lab.hits('/status/503?retry=none').map((entry) => entry.at);
    expect(times).toHaveLength(3);
    const [first, second] = gaps(times);
    expect(first).toBeGreaterThanOrEqual(100 - SLACK_MS);
    expect(second).toBeGreaterThanOrEqual(200 - SLACK_MS);
  });

  it('does not wait for a Retry-After longer than the limit', async () => {
    lab = await openLab({}, { fetchLimits: { maxRetryAfterSeconds: 5 } });
    const page = await lab.engine.web.fetch({ url: `${lab.origin}/status/429?retry=3600` });
    expect(page.status).toBe(429);
    expect(lab.hits('/status/429?retry=3600')).toHaveLength(1);
  });
});
