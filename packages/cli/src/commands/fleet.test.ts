import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { once } from 'node:events';
import { startLocalWeb, type LocalWeb } from '@wvr/testkit';
import type { components } from '@wvr/sdk';
// The engine's test database helper: a fresh PostgreSQL database for this file (the service, else embedded).
import { usePostgres } from '../../../engine/src/store/pg/testing.js';
import { runCli, serveCli, spawnCli } from '../testing.js';

type Schemas = components['schemas'];

let web: LocalWeb;
beforeAll(async () => {
  web = await startLocalWeb();
});
afterAll(() => web.close());
const pg = usePostgres('cli_fleet');

// Several CLI processes each load the engine: minutes, not seconds, on a loaded 2-core machine.
describe('a fleet on one PostgreSQL database', { timeout: 240_000 }, () => {
  it('an API server without a worker takes a crawl, a worker process runs it, and a local command on the same database sees the charge', async () => {
    const database = () => ['--database', pg.url];
    // Started together: the three processes race to migrate the empty database, and one does.
    const [created, { server, url }] = await Promise.all([
      runCli([...database(), 'tokens', 'create', '--user', 'fleet@x.test', '--json']),
      serveCli({ database: pg.url }, ['--no-worker']),
    ]);
    const worker = spawnCli([...database(), 'worker'], { WVR_ALLOW_PRIVATE_NETWORK: '1' });
    // Listened for from the start: either may exit before the other's exit is awaited.
    const exits = [worker, server].map((child) => once(child, 'exit').then(([code]) => code as number | null));
    try {
      expect(created.code, created.stderr).toBe(0);
      const { token } = JSON.parse(created.stdout) as { token: string };
      const balance = async () => (JSON.parse((await runCli([...database(), '--user', 'fleet@x.test', 'credits', '--json'])).stdout) as { balance: number }).balance;
      const before = await balance();
      const remote = (...args: string[]) => runCli(['--remote', url, '--token', token, ...args]);
      const queued = await remote('crawl', `${web.docs}/docs`, '--max-pages', '3', '--wait', '--json');
      expect(queued.code, queued.stderr).toBe(0);
      const crawl = JSON.parse(queued.stdout) as Schemas['CrawlDetail'];
      expect(crawl).toMatchObject({ status: 'completed', stats: { credits_used: 3 } });

      // Another process on the same database, through the local engine: the same account, charged once per page.
      expect(await balance()).toBe(before - 3);
    } finally {
      worker.kill('SIGTERM');
      server.kill('SIGTERM');
      expect(await Promise.all(exits)).toEqual([0, 0]);
    }
  });

  it('names a database it cannot reach, without its password, and exits 1', async () => {
    const result = await runCli(['--database', 'postgres://wvr:secret@127.0.0.1:1/wvr', 'worker', '--json']);
    expect(result.code).toBe(1);
    const error = JSON.parse(result.stderr) as { error: string; message: string };
    expect(error.message).toContain('postgres://wvr:***@127.0.0.1:1/wvr');
    expect(error.message).not.toContain('secret');
    expect(error.message).toMatch(/ECONNREFUSED/);
  });
});
