import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteStore } from './index.js';

const MB = 1_000_000;
const opened: SqliteStore[] = [];

/**
 * A store on a new file whose writer never copies its log itself (`wal_autocheckpoint = 0`): whatever reaches the
 * database file, or starts the log over, is the checkpointer thread's doing.
 */
function openStore() {
  const path = join(mkdtempSync(join(tmpdir(), 'wvr-checkpoint-')), 'wvr.db');
  const store = openSqliteStore(path);
  opened.push(store);
  store.sqlite.pragma('wal_autocheckpoint = 0');
  store.sqlite.exec('CREATE TABLE t (v BLOB NOT NULL)');
  const insert = store.sqlite.prepare('INSERT INTO t (v) VALUES (?)');
  /** `transactions` transactions of `bytes` each, 5 ms apart: the write lock is free between them, as between a crawl's. */
  const write = async (transactions: number, bytes: number) => {
    for (let i = 0; i < transactions; i++) {
      await store.atomically(async () => void insert.run(Buffer.alloc(bytes, i % 251)));
      await sleep(5);
    }
  };
  const size = (file: string) => (existsSync(file) ? statSync(file).size : 0);
  return { path, store, write, fileBytes: () => size(path), logBytes: () => size(`${path}-wal`) };
}

/** Waits up to 10 s for `done`. */
async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done() && waited < 10_000; waited += 50) await sleep(50);
}

afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});

describe('the SQLite log copied on another thread', () => {
  it('starts no thread for a database that writes little', async () => {
    const { store, write } = openStore();
    await write(64, 1_000);
    expect(store.checkpointer!.running).toBe(false);
  });

  it('copies the log into the file once the database writes enough', async () => {
    const { store, write, fileBytes } = openStore();
    await write(48, 128_000);
    expect(store.checkpointer!.running).toBe(true);
    // 6 MB written, copied into the file by the thread: the writer copies nothing itself.
    await until(() => fileBytes() > 5 * MB);
    expect(fileBytes()).toBeGreaterThan(5 * MB);
  });

  it('starts the log over while the writer goes on writing', async () => {
    const { write, logBytes, fileBytes } = openStore();
    // 40 MB, in transactions that leave the log no moment empty: without the RESTART checkpoints the log would hold it all.
    await write(320, 128_000);
    expect(fileBytes()).toBeGreaterThan(30 * MB);
    expect(logBytes()).toBeLessThan(20 * MB);
  });

  it('closes its connection before the writer closes, so the writer, the last, removes the log', async () => {
    const { path, store, write, fileBytes } = openStore();
    await write(48, 128_000);
    expect(store.checkpointer!.running).toBe(true);
    opened.splice(opened.indexOf(store), 1);
    await store.close();
    expect(store.checkpointer!.running).toBe(false);
    expect(existsSync(`${path}-wal`)).toBe(false);
    expect(fileBytes()).toBeGreaterThan(6 * MB);
  });
});
