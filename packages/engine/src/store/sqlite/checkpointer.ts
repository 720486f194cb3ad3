import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Copies the write-ahead log into the database file on a thread of its own. SQLite does it inside the COMMIT that takes
 * the log past `wal_autocheckpoint`: on a crawl of the PostgreSQL manual, three commits of 40 to 66 ms for each 1,000
 * pages, which held the main thread, and every API request waiting on it, as long (docs/benchmarks.md).
 *
 * Here a second connection makes a PASSIVE checkpoint every CHECKPOINT_MS: it copies what the writer has committed
 * meanwhile, without waiting for the writer or making it wait. A writer that commits every few milliseconds leaves new
 * pages in the log at every moment, so the log would never start over (SQLite starts it over only once all of it has been
 * copied): once it holds RESTART_PAGES, a RESTART checkpoint takes the write lock between two of the writer's
 * transactions, copies the little the PASSIVE one left, and starts it over. The writer waits for that lock as for any
 * other connection's, on a timer, not holding the event loop. Its own checkpoints stay, at the size they were, for a
 * thread that fell behind or failed.
 *
 * The thread starts once the log file has grown past START_BYTES (looked at every CHECK_EVERY commits): a database that
 * writes little, a test's or a CLI command's, never starts one.
 */
export class WalCheckpointer {
  private worker: Worker | undefined;
  private commits = 0;
  /** The thread failed: the writer's own checkpoints carry on alone. */
  private failed = false;

  constructor(private readonly path: string) {}

  /** Whether the thread is running. */
  get running(): boolean {
    return this.worker !== undefined;
  }

  /** After each of the writer's commits: starts the thread once the log has grown enough. Never throws: the commit is done. */
  committed(): void {
    if (this.worker || this.failed || ++this.commits % CHECK_EVERY !== 0) return;
    if (logBytes(this.path) < START_BYTES) return;
    try {
      this.start();
    } catch {
      this.failed = true;
    }
  }

  /** Ends the thread and closes its connection: the writer's close, the last, then copies the rest and removes the log. */
  async stop(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    // Held again while it closes: a process with nothing else to do would otherwise end first.
    worker.ref();
    worker.postMessage('stop');
    await exited;
  }

  private start(): void {
    const workerData = { driver: driverPath(), path: this.path, intervalMs: CHECKPOINT_MS, restartPages: RESTART_PAGES, waitMs: WAIT_MS };
    const worker = new Worker(CHECKPOINT_LOOP, { eval: true, workerData });
    // Never what keeps a process alive. A process that ends without closing its store loses nothing by it: SQLite takes
    // a checkpoint that was cut short up again.
    worker.unref();
    worker.once('error', () => {
      this.failed = true;
      this.worker = undefined;
    });
    this.worker = worker;
  }
}

/** Every this many commits, the log file's size is looked at. */
const CHECK_EVERY = 16;
/** SQLite's own checkpoint size, 1,000 pages of 4 KB. */
const START_BYTES = 4_096_000;
/** A crawl writes 10 to 20 MB of log in this time: copied in 10 to 30 ms on the other thread. */
const CHECKPOINT_MS = 200;
/** The log is started over once it holds this many pages: SQLite's own checkpoint size. */
const RESTART_PAGES = 1_000;
/** How long a RESTART checkpoint waits for the writer's transaction to end before it tries again at the next tick. */
const WAIT_MS = 250;

/** The log file's size: the most it has held since it was made (it is written over from its start, never cut). */
function logBytes(path: string): number {
  try {
    return statSync(`${path}-wal`).size;
  } catch {
    return 0;
  }
}

/** better-sqlite3 as this package finds it: the thread's code is evaluated, and finds no package of its own. */
function driverPath(): string {
  return createRequire(import.meta.url).resolve('better-sqlite3');
}

/**
 * The thread: its own connection, checkpoints on a timer, and a close on 'stop'. A checkpoint that fails is tried again
 * at the next tick: another connection's checkpoint running, a writer's transaction that outlasted WAIT_MS, or a full
 * disk leave the log as it is, and the writer's own checkpoints still copy it.
 */
const CHECKPOINT_LOOP = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = ' + workerData.waitMs);
const passive = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const restart = db.prepare('PRAGMA wal_checkpoint(RESTART)');
const timer = setInterval(() => {
  try {
    if (passive.get().log >= workerData.restartPages) restart.get();
  } catch {}
}, workerData.intervalMs);
parentPort.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;
