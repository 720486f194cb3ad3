import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { runCli, spawnCli } from './testing.js';

let data: string;
beforeAll(() => {
  data = mkdtempSync(join(tmpdir(), 'wvr-cli-'));
});
afterAll(() => rmSync(data, { recursive: true, force: true }));

const json = <T>(text: string): T => JSON.parse(text) as T;

describe('wvr CLI', () => {
  it('creates a user and a token, shows 100 credits, grants more and revokes the token', async () => {
    const created = await runCli(['--data', data, 'tokens', 'create', '--user', 'a@x.test', '--name', 'laptop', '--json']);
    expect(created.code).toBe(0);
    const token = json<{ token: string; id: string }>(created.stdout);
    expect(token.token).toMatch(/^wvr_/);

    const credits = await runCli(['--data', data, '--user', 'a@x.test', 'credits', '--json']);
    expect(json<{ balance: number; plan: string }>(credits.stdout)).toMatchObject({ balance: 100, plan: 'free' });

    expect((await runCli(['--data', data, 'credits', 'grant', '--user', 'a@x.test', '--amount', '25'])).code).toBe(0);
    const after = await runCli(['--data', data, '--user', 'a@x.test', 'credits', '--json']);
    expect(json<{ balance: number }>(after.stdout).balance).toBe(125);

    const revoked = await runCli(['--data', data, '--user', 'a@x.test', 'tokens', 'revoke', token.id, '--json']);
    expect(json<{ revoked_at: string | null }>(revoked.stdout).revoked_at).not.toBeNull();
    const list = await runCli(['--data', data, '--user', 'a@x.test', 'tokens', 'list']);
    expect(list.stdout).toContain('laptop');
    expect(list.stdout).toContain('revoked');
  });

  it('reports an engine error with its code on stderr and exits non-zero', async () => {
    const result = await runCli(['--data', data, 'tokens', 'revoke', '00000000-0000-4000-8000-000000000000']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('(token_not_found)');
    const asJson = await runCli(['--data', data, 'tokens', 'revoke', 'nope', '--json']);
    expect(json<{ code: string }>(asJson.stderr).code).toBe('token_not_found');
  });

  it('stops quietly, as a Unix tool does, when the reader of its output goes away (`wvr --json crawls | head`)', async () => {
    const child = spawnCli(['--data', data, '--user', 'a@x.test', 'credits', '--json']);
    // The reading end closes before the command writes: its write meets a closed pipe (EPIPE).
    child.stdout!.destroy();
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const [code] = (await once(child, 'close')) as [number | null];
    expect(stderr).toBe('');
    // 128 + SIGPIPE's 13: what a shell reports for `yes | head`, so `set -o pipefail` scripts see the same.
    expect(code).toBe(141);
  });

  it('serves the API, answers a remote command, and stops on SIGTERM', async () => {
    const created = json<{ token: string }>(
      (await runCli(['--data', data, 'tokens', 'create', '--user', 'remote@x.test', '--json'])).stdout,
    );
    const server = spawnCli(['--data', data, 'serve', '--port', '0']);
    let printed = '';
    const url = await new Promise<string>((resolve, reject) => {
      server.stdout!.on('data', (d: Buffer) => {
        printed += d.toString();
        const match = /wvr listening on (http:\/\/\S+)/.exec(printed);
        if (match) resolve(match[1]!);
      });
      server.on('exit', (code) => reject(new Error(`serve exited early with ${code}`)));
    });
    try {
      const remote = await runCli(['--remote', url, '--token', created.token, 'credits', '--json']);
      expect(remote.code).toBe(0);
      expect(json<{ balance: number }>(remote.stdout).balance).toBe(100);
      const refused = await runCli(['--remote', url, '--token', created.token, 'credits', 'grant', '--user', 'x@y.z', '--amount', '5']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('local_only');
    } finally {
      server.kill('SIGTERM');
    }
    const [code] = await once(server, 'exit');
    expect(code).toBe(0);
  });
});
