import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../testing.js';

let data: string;
beforeAll(() => {
  data = mkdtempSync(join(tmpdir(), 'wvr-sessions-'));
});
afterAll(() => rmSync(data, { recursive: true, force: true }));

const wvr = async (...args: string[]) => {
  const result = await runCli(['--data', data, ...args]);
  return { ...result, json: () => JSON.parse(result.stdout) as Record<string, unknown> };
};

describe('wvr sessions', () => {
  it('creates, lists, shows, shares, completes, archives and deletes a session', async () => {
    const created = await wvr('sessions', 'create', 'GPU pricing', '--intent', 'technical_evaluation', '--tag', 'gpu,cloud', '--max-operations', '5', '--json');
    expect(created.code).toBe(0);
    const session = created.json() as { id: string; metadata: unknown; session_config: { max_operations: number } };
    expect(session.metadata).toEqual({ intent: { type: 'technical_evaluation' }, tags: ['gpu', 'cloud'] });
    expect(session.session_config.max_operations).toBe(5);

    const listed = await wvr('sessions', 'list', '--tag', 'gpu');
    expect(listed.stdout).toContain('GPU pricing');
    expect(listed.stdout).toContain('1 of 1');

    const shown = await wvr('sessions', 'show', session.id);
    expect(shown.stdout).toContain('access owner');
    expect(shown.stdout).toContain('intent: technical_evaluation');

    const shared = await wvr('sessions', 'share', session.id, '--public', '--json');
    expect(shared.json()).toMatchObject({ public_share: true, shared_with_org: false });

    expect((await wvr('sessions', 'timeline', session.id)).stdout).toContain('(none)');
    expect((await wvr('sessions', 'complete', session.id)).stdout).toContain('is completed');

    const again = await wvr('sessions', 'complete', session.id);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('session_already_completed');

    expect((await wvr('sessions', 'archive', session.id)).stdout).toContain('is archived');
    expect((await wvr('sessions', 'delete', session.id)).stdout).toContain('Deleted session "GPU pricing"');
    expect((await wvr('sessions', 'list', '--json')).json()).toMatchObject({ total: 0 });
  }, 180_000);

  it('refuses share without a choice and an unknown intent before calling anything', async () => {
    const share = await wvr('sessions', 'share', '00000000-0000-4000-8000-000000000000');
    expect(share.code).not.toBe(0);
    expect(share.stderr).toContain('--public');
    const intent = await wvr('sessions', 'create', 'x', '--intent', 'gossip');
    expect(intent.code).not.toBe(0);
    expect(intent.stderr).toContain("argument 'gossip' is invalid");
  }, 60_000);
});
