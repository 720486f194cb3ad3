import { chmodSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { logPages, openDatabase } from './open.js';

let made: string | null = null;
afterEach(() => {
  if (made) {
    chmodSync(made, 0o755);
    rmSync(made, { recursive: true, force: true });
    made = null;
  }
});

/** A folder nobody may write to: a chmod 0555 folder, or for root (who ignores modes) the read-only sysfs. */
function unwritableFolder(): string | null {
  if (process.getuid?.() !== 0) {
    made = mkdtempSync(join(tmpdir(), 'wvr-ro-'));
    chmodSync(made, 0o555);
    return made;
  }
  return existsSync('/sys/kernel') ? '/sys/kernel' : null;
}

describe('openDatabase', () => {
  it('names the unwritable folder when a new data folder cannot be created, instead of a bare mkdir error', (ctx) => {
    const parent = unwritableFolder();
    if (!parent) return ctx.skip();
    const dataDir = join(parent, 'wvr-data', 'nested');
    expect(() => openDatabase(join(dataDir, 'wvr.sqlite'))).toThrow(
      new RegExp(`cannot create or write the data folder ${dataDir}: (${parent} is not writable|creating it inside ${parent} failed)`),
    );
  });

  it('copies the write-ahead log into the file at tens of MB, not at every 4 MB of small commits', () => {
    made = mkdtempSync(join(tmpdir(), 'wvr-wal-'));
    const path = join(made, 'wvr.sqlite');
    const { sqlite } = openDatabase(path);
    const fileBefore = statSync(path).size;
    sqlite.exec('CREATE TABLE pages (id INTEGER PRIMARY KEY, body BLOB)');
    const insert = sqlite.prepare('INSERT INTO pages (body) VALUES (?)');
    // One commit a row, a row a page: about 2,500 pages of log and more, as a crawl's commits write.
    for (let i = 0; i < 2_500; i++) insert.run(Buffer.alloc(3_000));
    // At SQLite's default of 1,000 pages, the log would have been copied twice and started over (about 4 MB).
    expect(statSync(`${path}-wal`).size).toBeGreaterThan(2_500 * 4_096);
    expect(statSync(path).size).toBe(fileBefore);
    sqlite.close();
  });

  it('lets the log take at most a quarter of the free disk, between SQLite default and 10,000 pages', () => {
    expect(logPages(Infinity)).toBe(10_000);
    expect(logPages(10e9)).toBe(10_000);
    expect(logPages(100e6)).toBe(6_103);
    // The full-disk run's 16 MB volume, about 15 MB free: SQLite's default, so the log is copied before it fills the disk.
    expect(logPages(15e6)).toBe(1_000);
    expect(logPages(0)).toBe(1_000);
  });
});
