import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { createEngine } from '@wvr/engine';
import { spawnCli } from '../testing.js';

let data: string;
let token: string;
beforeAll(async () => {
  data = mkdtempSync(join(tmpdir(), 'wvr-serve-log-'));
  const engine = createEngine({ dataDir: data });
  token = (await engine.tokens.issue((await engine.accounts.ensureUser({ email: 'log@x.test' })).id, { name: 'log' })).token;
  await engine.close();
});
afterAll(() => rmSync(data, { recursive: true, force: true }));

describe('wvr serve --log', () => {
  it('writes one JSON line per request, with method, URL and status, and never the token', async () => {
    const server = spawnCli(['--data', data, '--json', 'serve', '--port', '0', '--log', '--no-worker']);
    const lines: string[] = [];
    const reader = createInterface({ input: server.stdout! });
    let resolveUrl: (url: string) => void;
    const url = new Promise<string>((resolve) => (resolveUrl = resolve));
    reader.on('line', (line) => {
      lines.push(line);
      const parsed = JSON.parse(line) as { url?: string; msg?: string };
      if (parsed.url && !parsed.msg) resolveUrl(parsed.url);
    });
    try {
      const base = await url;
      const auth = { authorization: `Bearer ${token}` };
      expect((await fetch(`${base}/v1/me`, { headers: auth })).status).toBe(200);
      expect((await fetch(`${base}/v1/credits?token=${token}`, { headers: auth })).status).toBe(200);
      expect((await fetch(`${base}/v1/crawls/nope`, { headers: auth })).status).toBe(404);
      expect((await fetch(`${base}/v1/me`)).status).toBe(401);
      await expect.poll(() => lines.filter((l) => l.includes('request completed')).length).toBe(4);

      const requests = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'request completed');
      expect(requests.map((r) => [r.method, r.status])).toEqual([
        ['GET', 200],
        ['GET', 200],
        ['GET', 404],
        ['GET', 401],
      ]);
      expect(requests[0]).toMatchObject({ url: '/v1/me', level: 30 });
      expect(requests[1]!.url).toBe('/v1/credits?token=[redacted]');
      const secret = token.slice('wvr_'.length);
      expect(lines.join('\n')).not.toContain(secret);
      expect(lines.join('\n')).not.toMatch(/authorization/i);
    } finally {
      server.kill('SIGTERM');
      await once(server, 'exit');
    }
  }, 60_000);
});
