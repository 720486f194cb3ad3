/** The fresh process of bench/crawl/warm-up.ts: a page reader, the pages read cold and then warm. */
import { ParsePool } from '../../packages/engine/src/html/parse-pool.js';
import { receiveConfig, sendResult } from '../lib/child.js';

export interface WarmUpConfig {
  pages: { url: string; html: string }[];
}

export interface WarmUpResult {
  coldCpuMs: number;
  firstHundredCpuMs: number;
  warmCpuMs: number;
}

const { pages } = await receiveConfig<WarmUpConfig>();
const pool = new ParsePool({ size: 1, idleMs: 0 });
const release = pool.hold();
// The reader's start is not reading: the clock starts once it has loaded its code.
while (pool.loaded < 1) await new Promise((resolve) => setTimeout(resolve, 5));

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
async function readAll(onPage?: (index: number) => void): Promise<number> {
  const start = cpuMs();
  for (let i = 0; i < pages.length; i++) {
    await pool.parse(pages[i]!.html, pages[i]!.url);
    onPage?.(i);
  }
  return cpuMs() - start;
}

const started = cpuMs();
let firstHundredCpuMs = 0;
const coldCpuMs = await readAll((i) => {
  if (i === Math.min(100, pages.length) - 1) firstHundredCpuMs = cpuMs() - started;
});
const warmCpuMs = await readAll();
release();
await pool.close();
await sendResult({ coldCpuMs, firstHundredCpuMs, warmCpuMs } satisfies WarmUpResult);
