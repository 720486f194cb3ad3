import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

describe('embed example', () => {
  const file = fileURLToPath(new URL('./embed.ts', import.meta.url));

  it('crawls a loopback shop with an intent and a schema, searches it, asks, and monitors a price change', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', file], { encoding: 'utf8', timeout: 120_000 });
    expect(out).toMatch(/^crawl pending: 0 pages$/m);
    expect(out).toMatch(/^crawl completed: 3 pages$/m);
    expect(out).toContain('- Aurora headphones: 249 EUR');
    expect(out).toContain('- Breeze earbuds: 89 EUR');
    expect(out).toMatch(/^search: .*Aurora headphones/m);
    expect(out).toMatch(/^ask: .*Aurora headphones.*\[1\].*\([1-3] sources\)$/m);
    expect(out).toMatch(/^monitor: 1 changed page\(s\)$/m);
  });

  it('stays under 60 lines', () => {
    expect(readFileSync(file, 'utf8').trimEnd().split('\n').length).toBeLessThan(60);
  });
});
