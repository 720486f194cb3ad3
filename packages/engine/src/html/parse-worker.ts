import { parentPort } from 'node:worker_threads';
import { parseHtml, type ReadOptions } from './parse.js';

/** One page in, its reading out: the worker side of ParsePool. */
export interface ParseJob {
  id: number;
  html: string;
  url: string;
  options: ReadOptions;
}

parentPort?.on('message', (job: ParseJob) => {
  try {
    parentPort!.postMessage({ id: job.id, page: parseHtml(job.html, job.url, job.options) });
  } catch (error) {
    parentPort!.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) });
  }
});

// Its code is loaded: the pool may now send it pages rather than read them in place (see ParsePool.parse).
parentPort?.postMessage({ ready: true });
