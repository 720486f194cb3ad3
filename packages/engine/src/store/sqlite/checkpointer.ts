import type Database from 'better-sqlite3';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';

/**
 * Copies the write-ahead log back into the database file on a thread of its own.
 *
 * SQLite's own checkpoint runs inside whichever COMMIT takes the log past `wal_autocheckpoint`
 * pages, on the committing thread: it copies every page written since the last one and waits for
 * two fsyncs. A crawl commits a group of pages every few ms, so on the main thread that was 0.2 s of
 * a 1,000-page crawl's 0.4 s of COMMITs (issue 11), while fetches, the page reader's answers and API
 * requests waited behind it. Here a worker with its own connection runs PASSIVE checkpoints, which
 * never block a writer, at most once per CHECKPOINT_EVERY_MS: the log stays a few MB, and a page
 * that several commits rewrote is copied once.
 *
 * The committing connection keeps an automatic checkpoint only as a backstop (BACKSTOP_PAGES), for
 * a worker that falls behind or dies; it is back at SQLite's default once the worker is gone. The
 * worker starts at the STARTS_AFTER-th commit: a short command (`wvr credits`) never pays its start.
 */
export class Checkpointer {
  /** [0]: commits so far; [1]: 1 once the worker is asked to stop. */
  private readonly signal = new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
  private worker: Worker | undefined;
  private exited: Promise<void> | undefined;
  private commits = 0;
  private closed = false;
  /** Resolved now: a relative path must name the same file if the process changes folder before the thread starts. */
  private readonly path: string;

  constructor(private readonly sqlite: Database.Database) {
    this.path = resolve(sqlite.name);
  }

  /** After each COMMIT of the store's transactions: wakes the worker, starting it on the STARTS_AFTER-th. */
  committed(): void {
    if (this.closed || this.sqlite.memory) return;
    if (++this.commits === STARTS_AFTER) this.start();
    Atomics.add(this.signal, 0, 1);
    Atomics.notify(this.signal, 0);
  }

  /** Stops the worker after its checkpoint in progress; the caller's close then checkpoints what is left. */
  async close(): Promise<void> {
    this.closed = true;
    // Unreferenced while it runs; the caller now waits for its exit, so the event loop must too.
    this.worker?.ref();
    Atomics.store(this.signal, 1, 1);
    Atomics.notify(this.signal, 0);
    Atomics.notify(this.signal, 1);
    await this.exited;
  }

  private start(): void {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { driver: createRequire(import.meta.url).resolve('better-sqlite3'), path: this.path, signal: this.signal, everyMs: CHECKPOINT_EVERY_MS },
    });
    // The store's owner closes it; a process that ends without closing must not wait for this thread.
    worker.unref();
    this.worker = worker;
    this.sqlite.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
    this.exited = new Promise((settle) => {
      const done = () => {
        this.worker = undefined;
        if (this.sqlite.open) this.sqlite.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_PAGES}`);
        settle();
      };
      worker.once('exit', done);
      // A worker that cannot open the file (or fails later) leaves checkpoints to the committing thread, as before.
      worker.once('error', () => undefined);
    });
  }
}

const STARTS_AFTER = 16;
const CHECKPOINT_EVERY_MS = 100;
/** 40 MB of 4 KB pages: ten times SQLite's default, reached only if the worker does not keep up. */
const BACKSTOP_PAGES = 10_000;
const SQLITE_DEFAULT_PAGES = 1_000;

/**
 * The worker's code, evaluated as CommonJS so it needs no file of its own beside the bundle. It
 * sleeps until a commit, checkpoints, then sleeps CHECKPOINT_EVERY_MS (or until told to stop) so the
 * commits of that span are copied together. A failed checkpoint (a full disk) is tried again at the
 * next commit; the committing thread's backstop bounds the log meanwhile.
 */
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const { path, signal, everyMs } = workerData;
const db = new Database(path, { fileMustExist: true });
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
let seen = 0;
while (Atomics.load(signal, 1) === 0) {
  Atomics.wait(signal, 0, seen);
  seen = Atomics.load(signal, 0);
  if (Atomics.load(signal, 1) !== 0) break;
  try { checkpoint.get(); } catch {}
  Atomics.wait(signal, 1, 0, everyMs);
}
db.close();
`;
