import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './open.js';

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
});
