import { describe, expect, it } from 'vitest';
import { startSite, type RequestLogEntry } from './server.js';

describe('startSite', () => {
  it('answers over loopback, logs each request and turns a throwing handler into a 500', async () => {
    const log: RequestLogEntry[] = [];
    const site = await startSite('127.0.0.1', (url) => {
      if (url.pathname === '/boom') throw new Error('generator bug');
      return { body: `path ${url.pathname}`, headers: { 'x-site': 'one' } };
    }, log);
    try {
      const ok = await fetch(`${site.origin}/a?b=1`);
      expect([ok.status, ok.headers.get('x-site'), await ok.text()]).toEqual([200, 'one', 'path /a']);
      const head = await fetch(`${site.origin}/a`, { method: 'HEAD' });
      expect(await head.text()).toBe('');
      const boom = await fetch(`${site.origin}/boom`);
      expect(boom.status).toBe(500);
      expect(await boom.text()).toContain('generator bug');
      expect(log.map((e) => [e.path, e.method, e.status])).toEqual([['/a?b=1', 'GET', 200], ['/a', 'HEAD', 200], ['/boom', 'GET', 500]]);
      expect(log[1]!.at).toBeGreaterThanOrEqual(log[0]!.at);
    } finally {
      await site.close();
    }
  });
});
