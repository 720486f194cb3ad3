import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

describe('demo', () => {
  it('tells the whole story on a fresh data folder and again on the same one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wvr-demo-'));
    const run = () =>
      execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./demo.ts', import.meta.url))], {
        env: { ...process.env, WVR_DEMO_DIR: dir },
        encoding: 'utf8',
      });
    try {
      for (const out of [run(), run()]) {
        expect(out).toMatch(/Account demo@wvr\.localhost on the developer plan, API token wvr_…\S+/);
        const [, pages, relevant] = /Smart crawl of the shop .*: (\d+) pages, (\d+) of them relevant/.exec(out)!;
        expect(Number(pages)).toBe(24);
        expect(Number(relevant)).toBeGreaterThan(Number(pages) / 3);
        expect(out).toMatch(/ · \d+(\.\d+)? EUR · (InStock|OutOfStock)/);
        expect(out).toMatch(/Search of what the session crawled .*: [1-5] results/);
        expect(out).toMatch(/Ask: .+\n\s+[1-5] sources, every \[n\] in the answer points at one of them/);
        expect(out).toMatch(/run 2 found\n\s+1 changed page/);
        expect(out).toContain('Timeline of the session: 3 operations.');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
