import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './open.js';
import { TxGate } from '../gate.js';
import { createSqliteStore, gated } from './index.js';

function openStore() {
  const { sqlite, db } = openDatabase(join(mkdtempSync(join(tmpdir(), 'wvr-store-')), 'wvr.db'));
  sqlite.exec('CREATE TABLE t (v TEXT NOT NULL)');
  const gate = new TxGate();
  const store = createSqliteStore(sqlite, db, gate);
  const rows = () => (sqlite.prepare('SELECT v FROM t ORDER BY rowid').all() as { v: string }[]).map((r) => r.v);
  return { sqlite, store, gate, rows };
}

describe('SQLite store transactions across awaits', () => {
  it('keeps a write from outside out of an open transaction that rolls back', async () => {
    const { sqlite, store, gate: storeGate, rows } = openStore();
    const insert = (v: string) => sqlite.prepare('INSERT INTO t (v) VALUES (?)').run(v);
    let release!: () => void;
    const paused = new Promise<void>((resolve) => (release = resolve));
    const tx = store.atomically(async () => {
      insert('inside');
      await paused;
      throw new Error('abandon');
    });
    // Through a port gated like the store's own, an outside write waits for the transaction instead of joining it.
    const written = gated(storeGate, { insert }).insert('outside');
    release();
    await expect(tx).rejects.toThrow('abandon');
    await written;
    expect(rows()).toEqual(['outside']);
  });

  it('joins nested transactions and commits once', async () => {
    const { sqlite, store, rows } = openStore();
    const insert = (v: string) => sqlite.prepare('INSERT INTO t (v) VALUES (?)').run(v);
    await store.atomically(async () => {
      insert('a');
      await store.atomically(async () => {
        insert('b');
      });
      expect(sqlite.inTransaction).toBe(true);
    });
    expect(sqlite.inTransaction).toBe(false);
    expect(rows()).toEqual(['a', 'b']);
  });
});

describe('gated ports', () => {
  it('turns a synchronous implementation into an async one with the same methods', async () => {
    const gate = new TxGate();
    class Counter {
      n = 0;
      add(by: number) {
        this.n += by;
        return this.n;
      }
    }
    const port = gated(gate, new Counter());
    await expect(port.add(2)).resolves.toBe(2);
    await expect(port.add(3)).resolves.toBe(5);
  });
});

describe('the crawl tables', () => {
  it("list a crawl's classifications (asked at every read of a crawl, polls included) from a covering index, not its documents' rows", () => {
    const { sqlite } = openDatabase(':memory:');
    // The shape of SqliteCrawl.classifications' statement.
    const plan = sqlite
      .prepare('EXPLAIN QUERY PLAN SELECT url, classification FROM crawl_documents WHERE crawl_id = ? AND classification IS NOT NULL ORDER BY seq ASC')
      .all('c') as { detail: string }[];
    expect(plan.map((p) => p.detail)).toEqual(['SEARCH crawl_documents USING COVERING INDEX crawl_documents_classified (crawl_id=?)']);
    sqlite.close();
  });
});

describe('SQLite store on a full disk', () => {
  it('copies its log at SQLite default size again once a transaction finds the disk full', async () => {
    const { sqlite, store } = openStore();
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(10_000);
    // The file may not grow past a few more pages: SQLite answers SQLITE_FULL, as it does when the disk is full.
    sqlite.pragma(`max_page_count = ${Number(sqlite.pragma('page_count', { simple: true })) + 8}`);
    const write = store.atomically(async () => {
      sqlite.prepare('INSERT INTO t (v) VALUES (?)').run('x'.repeat(200_000));
    });
    await expect(write).rejects.toMatchObject({ code: 'SQLITE_FULL' });
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(1_000);
  });
});
