import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { parseHtml, takeTree, type ParsedPage, type ReadOptions } from './parse.js';
import type { ParseJob, ReaderData } from './parse-worker.js';

/**
 * Reads pages on other cores. A crawl's main thread fetches, stores and serves the API; reading a
 * page (tree, text, markdown, links) is the CPU-heavy part, so with a spare core it runs in a
 * worker thread and the event loop stays free. With one core (or `size: 0`) pages are read in
 * place: a worker would only add the copying. So are pages that come while no reader has loaded
 * its code yet: a reader takes a few hundred ms to start, longer than most pages take to read.
 *
 * A page from the pool carries no parsed tree (see `takeTree`), wherever it was read: callers that
 * reuse the tree (extraction's DOM patterns) read in place instead.
 */
export class ParsePool {
  readonly size: number;
  /** The readers alive, each with the pages sent to it and not answered yet. */
  private readonly load = new Map<Worker, number>();
  /**
   * Readers still loading their code, each with the flag it sets once loaded. Shared memory, read at each page, not a
   * message: while no reader has loaded, this thread reads the pages that come in, and a burst of them would keep a
   * message waiting behind them (the reader idle for a third of a second on a real site's first pages).
   */
  private readonly booting = new Map<Worker, Int32Array>();
  /** Pages no reader has room for yet, or (while none has loaded) waiting their turn to be read here. */
  private readonly waiting: { job: Omit<ParseJob, 'id'>; settle: Settle }[] = [];
  private readonly running = new Map<number, { worker: Worker; job: Omit<ParseJob, 'id'>; settle: Settle }>();
  private nextId = 1;
  private closed = false;
  private readonly idleMs: number;
  private holds = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  /** A turn of the event loop is booked to read a waiting page here (see `readInTurn`). */
  private turnTaken = false;

  /**
   * `idleMs`: how long the readers are kept once no crawl holds the pool (see `hold`). Default
   * READERS_KEPT_MS; 0 lets them go as the last crawl ends.
   */
  constructor(options: { size?: number; idleMs?: number } = {}) {
    this.size = Math.max(0, Math.floor(options.size ?? defaultSize()));
    this.idleMs = Math.max(0, options.idleMs ?? READERS_KEPT_MS);
  }

  /** Reader threads alive now (started on demand, up to `size`). */
  get readers(): number {
    return this.load.size;
  }

  /** Readers that have loaded their code and read the pages sent to them (the others are still starting). */
  get loaded(): number {
    return this.load.size - this.stillBooting();
  }

  parse(html: string, url: string, options: ReadOptions = {}): Promise<ParsedPage> {
    // Read here without readers (`size: 0`) and once closed.
    if (this.closed || this.size === 0) return new Promise((resolve, reject) => readInPlace({ html, url, options }, { resolve, reject }));
    return new Promise((resolve, reject) => {
      const settle: Settle = { resolve, reject };
      // No reader has loaded its code: one starts for the pages to come, and this one waits its turn to be read here.
      if (this.stillBooting() === this.load.size) {
        this.spawn();
        this.waiting.push({ job: { html, url, options }, settle });
        this.readInTurn();
        return;
      }
      const worker = this.readerFor();
      if (worker) this.send(worker, { html, url, options }, settle);
      else this.waiting.push({ job: { html, url, options }, settle });
    });
  }

  /**
   * While no reader has loaded, the waiting pages are read on this thread one a turn of the event loop, so a crawl's
   * first page (a one-page crawl's only one) never waits for a reader. A crawl's pages come in bursts (its fetch slots
   * settle together), and a burst read at once would hold this thread for a few hundred ms of cold pages, long after
   * the reader has loaded and while it sits idle: before each page the flag is read, and from the moment a reader has
   * loaded, the pages still waiting go to it.
   */
  private readInTurn(): void {
    if (this.turnTaken) return;
    this.turnTaken = true;
    setImmediate(() => {
      this.turnTaken = false;
      if (this.stillBooting() < this.load.size) return this.sendWaiting();
      const next = this.waiting.shift();
      if (!next) return;
      readInPlace(next.job, next.settle);
      if (this.waiting.length > 0) this.readInTurn();
    });
  }

  /** The waiting pages to the readers, as many as they have room for; the rest go as the readers answer. */
  private sendWaiting(): void {
    for (let worker = this.readerFor(); worker && this.waiting.length > 0; worker = this.readerFor()) {
      const next = this.waiting.shift()!;
      this.send(worker, next.job, next.settle);
    }
  }

  /**
   * An idle reader, else a new one (up to `size`), else the least busy with room in its queue. A
   * reader is sent its next pages before it answers the one it reads: while the main thread is busy
   * (storing a slice of pages takes a few pages' reading time), an answer waits for it to read, and a
   * reader that waited for the answer to be read before its next page would idle meanwhile.
   */
  private readerFor(): Worker | undefined {
    let best: Worker | undefined;
    for (const [worker, load] of this.load) {
      if (load === 0) return worker;
      if (load < QUEUED_PER_READER && (best === undefined || load < this.load.get(best)!)) best = worker;
    }
    return this.spawn() ?? best;
  }

  /**
   * Keeps the readers while a crawl runs; the function returned ends the hold. Once no hold is left
   * for `idleMs`, the readers not reading a page are let go, and with them their heaps (tens of MB
   * each on real sites): an idle engine gives that memory back, and the next page starts a reader.
   */
  hold(): () => void {
    this.holds++;
    clearTimeout(this.idleTimer);
    // A crawl is about to read pages: its first reader loads its code while the crawl fetches robots.txt and
    // its first page, not after the first page has come in.
    if (this.load.size === 0 && !this.closed) this.spawn();
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      if (--this.holds > 0) return;
      if (this.idleMs === 0) this.releaseIdle();
      else this.idleTimer = setTimeout(() => this.releaseIdle(), this.idleMs).unref();
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    for (const { job, settle } of this.waiting.splice(0)) readInPlace(job, settle);
    // Pages a worker still holds are read here: a terminated worker never answers for them.
    for (const { job, settle } of this.running.values()) readInPlace(job, settle);
    this.running.clear();
    await Promise.all([...this.load.keys()].map((w) => w.terminate()));
  }

  private releaseIdle(): void {
    for (const [worker, load] of this.load) {
      if (load > 0) continue;
      // Forgotten first: its exit is then not taken for a failure.
      this.load.delete(worker);
      this.booting.delete(worker);
      void worker.terminate();
    }
  }

  /** How many readers are still loading their code; those that have finished are forgotten here. */
  private stillBooting(): number {
    for (const [worker, loaded] of this.booting) if (Atomics.load(loaded, 0) === 1) this.booting.delete(worker);
    return this.booting.size;
  }

  private spawn(): Worker | undefined {
    if (this.load.size >= this.size) return undefined;
    const loaded = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
    const worker = startWorker({ loaded } satisfies ReaderData);
    // A crawl in progress must not keep the process alive by its readers alone.
    worker.unref();
    worker.on('message', (message: { id: number; page?: ParsedPage; error?: string }) => {
      const job = this.running.get(message.id);
      if (!job) return;
      this.running.delete(message.id);
      if (message.page) job.settle.resolve(message.page);
      else readInPlace(job.job, job.settle, new Error(message.error ?? 'page reader failed'));
      this.release(worker);
    });
    worker.on('error', (error) => this.fail(worker, error));
    worker.on('exit', (code) => {
      if (!this.closed) this.fail(worker, new Error(`page reader exited with code ${code}`));
    });
    this.load.set(worker, 0);
    this.booting.set(worker, loaded);
    return worker;
  }

  private send(worker: Worker, job: Omit<ParseJob, 'id'>, settle: Settle): void {
    const id = this.nextId++;
    this.running.set(id, { worker, job, settle });
    this.load.set(worker, this.load.get(worker)! + 1);
    worker.postMessage({ id, ...job } satisfies ParseJob);
  }

  /** One answer in: the reader's next waiting page goes to it. */
  private release(worker: Worker): void {
    this.load.set(worker, this.load.get(worker)! - 1);
    const next = this.waiting.shift();
    if (next) this.send(worker, next.job, next.settle);
  }

  /** A dead worker's pages are read in place; the pool replaces it on the next page. */
  private fail(worker: Worker, error: unknown): void {
    this.booting.delete(worker);
    if (!this.load.delete(worker)) return;
    for (const [id, { worker: owner, job, settle }] of this.running) {
      if (owner !== worker) continue;
      this.running.delete(id);
      readInPlace(job, settle, error);
    }
  }
}

/** A page read here is handed on as a reader's would be: without its tree, which would otherwise live as long as the page. */
function readInPlace(job: Omit<ParseJob, 'id'>, settle: Settle, cause?: unknown): void {
  try {
    const page = parseHtml(job.html, job.url, job.options);
    takeTree(page, job.html);
    settle.resolve(page);
  } catch (error) {
    settle.reject(cause ?? error);
  }
}

interface Settle {
  resolve(page: ParsedPage): void;
  reject(error: unknown): void;
}

/**
 * Readers kept after the last crawl ended: a worker running crawls back to back keeps them warm
 * (starting one costs about 80 ms of CPU, and its first pages run unoptimised).
 */
const READERS_KEPT_MS = 5_000;

/** Pages sent to one reader ahead of its answers: enough to keep it reading through a busy main thread, few enough that their copies stay small. */
const QUEUED_PER_READER = 4;

/**
 * One reader per spare core: the main thread keeps one for fetching, storing and the API. From
 * source (tests, tsx), none unless asked: each worker would compile the reader's TypeScript again.
 */
function defaultSize(): number {
  return existsSync(fileURLToPath(builtWorker())) ? Math.min(4, availableParallelism() - 1) : 0;
}

const builtWorker = () => new URL('./parse-worker.js', import.meta.url);

/**
 * Built, the worker is `parse-worker.js` beside this file. From source (tests, tsx), it is the `.ts`
 * file, loaded through tsx's loader registered inside the worker: a worker does not inherit the
 * loader of the thread that starts it.
 */
/**
 * A reader's heap. V8 lets an isolate's heap grow to four times what survived its last full
 * collection when the isolate may use gigabytes, and a reader's heap is nearly all garbage (every
 * tree it built): on the NLTK site one reader grew to 175 MB. A bounded old generation makes V8
 * collect sooner (its growth factor shrinks with the limit): about 80 MB there. A synthetic 10 MB
 * page (the fetcher's body cap) reads within 256 MB; a page that needs more ends the worker, and
 * the pool reads that page in place and starts a new reader for the next one.
 *
 * The young generation is where a page's tree is built and, for most pages, dies: a reading makes about 23 bytes for
 * each byte of HTML, and a tree still being read when a scavenge comes is copied, and at the second one promoted into
 * old-generation pages fresh from the system. At 32 MB (semi-spaces of about 10 MB) a 2 MB page's reading (46 MB made)
 * met three scavenges, and cost 34 times a 100 KB page's. At 192 MB a semi-space (64 MB) holds that whole reading:
 * under one scavenge a read, and about 23 times (docs/benchmarks.md). V8 grows a semi-space only as what survives its
 * scavenges asks, so a crawl of small pages keeps its young generation small; a reader that reads a site of large
 * pages for long holds 30 to 70 MB more, until the pool lets it go.
 */
export const READER_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 192 };

function startWorker(workerData: ReaderData): Worker {
  const built = builtWorker();
  if (existsSync(fileURLToPath(built))) return new Worker(built, { resourceLimits: READER_LIMITS, workerData });
  const source = new URL('./parse-worker.ts', import.meta.url).href;
  // require.resolve finds tsx's CommonJS API; its ES module twin sits beside it and is the one that registers an ESM loader.
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  return new Worker(`import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(source)}); });`, { eval: true, resourceLimits: READER_LIMITS, workerData });
}
