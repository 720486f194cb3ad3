import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

describe('demo', () => {
  it('tells the story on a fresh data folder and again on the same one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wvr-demo-'));
    const run = () =>
      execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./demo.ts', import.meta.url))], {
        env: { ...process.env, WVR_DEMO_DIR: dir },
        encoding: 'utf8',
      });
    try {
      const first = run();
      expect(first).toMatch(/Account demo@wvr\.localhost on the free plan, API token wvr_…\S+/);
      expect(first).toContain('Balance: 100 credits');
      expect(run()).toContain('Balance: 100 credits');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
