import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteStore } from './index.js';

let dir: string | undefined;
let store: SqliteStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** `n` transactions through the store, each writing a 256 KB row: the log grows by about 64 pages a commit. */
async function commit(s: SqliteStore, n: number): Promise<void> {
  s.sqlite.exec('CREATE TABLE IF NOT EXISTS scratch (body BLOB NOT NULL)');
  const insert = s.sqlite.prepare('INSERT INTO scratch (body) VALUES (?)');
  for (let i = 0; i < n; i++) await s.atomically(async () => void insert.run(Buffer.alloc(256 * 1024, i)));
}

describe('the SQLite store checkpoints on a thread of its own', () => {
  it('copies committed pages into the database file while the connection that wrote them keeps committing', async () => {
    dir = mkdtempSync(join(tmpdir(), 'wvr-ckpt-'));
    const file = join(dir, 'wvr.db');
    store = openSqliteStore(file);
    const before = statSync(file).size;
    // 40 commits, about 10 MB of log: under the committing connection's backstop (40 MB), so only the
    // checkpointing thread can have copied them into the file.
    await commit(store, 40);
    await expect.poll(() => statSync(file).size - before, { timeout: 10_000, interval: 20 }).toBeGreaterThan(9 * 1024 * 1024);
    expect(store.sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(10_000);
  });

  it('lets the store close (its log folded in and removed) and keeps every row', async () => {
    dir = mkdtempSync(join(tmpdir(), 'wvr-ckpt-'));
    const file = join(dir, 'wvr.db');
    store = openSqliteStore(file);
    await commit(store, 30);
    await store.close();
    store = undefined;
    expect(existsSync(`${file}-wal`)).toBe(false);
    store = openSqliteStore(file);
    expect(store.sqlite.prepare('SELECT count(*) FROM scratch').pluck().get()).toBe(30);
  });

  it('leaves a short-lived store to SQLite: a few commits start no thread', async () => {
    dir = mkdtempSync(join(tmpdir(), 'wvr-ckpt-'));
    store = openSqliteStore(join(dir, 'wvr.db'));
    await commit(store, 3);
    expect(store.sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(1_000);
  });
});
