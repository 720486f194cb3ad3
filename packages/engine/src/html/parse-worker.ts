import { parentPort, workerData } from 'node:worker_threads';
import { NodePool } from './node-pool.js';
import { parseHtmlWith, type ReadOptions } from './parse.js';

/** One page in, its reading out: the worker side of ParsePool. */
export interface ParseJob {
  id: number;
  html: string;
  url: string;
  options: ReadOptions;
}

/** What the pool gives a reader: `loaded[0]` is set to 1 once the reader's code has loaded. */
export interface ReaderData {
  loaded: Int32Array;
}

// This thread hands on pages, never trees: each reading builds its tree of the last one's nodes.
const nodes = new NodePool();

parentPort?.on('message', (job: ParseJob) => {
  try {
    parentPort!.postMessage({ id: job.id, page: parseHtmlWith(nodes, job.html, job.url, job.options) });
  } catch (error) {
    parentPort!.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) });
  }
});

// Its code is loaded: the pool may now send it pages rather than read them in place (see ParsePool.parse).
const data = workerData as ReaderData | null;
if (data?.loaded) Atomics.store(data.loaded, 0, 1);
