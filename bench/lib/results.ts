import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const resultsDir = join(dirname(fileURLToPath(import.meta.url)), '..', '.results');

/** What the figures were measured on; the machine is shared, so the load average goes in too. */
export function machine() {
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(totalmem() / 1024 ** 3),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadAverage1m: Math.round(loadavg()[0]! * 100) / 100,
    date: new Date().toISOString(),
  };
}

/** Writes `bench/.results/<name>-<timestamp>.json` and `<name>-latest.json`; returns the first path. */
export function writeResult(name: string, data: unknown): string {
  mkdirSync(resultsDir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const file = join(resultsDir, `${name}-${stamp}.json`);
  const text = `${JSON.stringify(data, null, 2)}\n`;
  writeFileSync(file, text);
  writeFileSync(join(resultsDir, `${name}-latest.json`), text);
  return file;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}
