import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sampleMemory, type MemoryReport } from '../../lib/memory.js';
import { receiveConfig, sendResult } from '../../lib/child.js';

/** What the parent hands every contender. */
export interface ContenderConfig {
  /** Catalogue origin of the local web, e.g. http://127.0.0.1:40123. */
  origin: string;
  /** Category hub URLs the crawlers start from. */
  seeds: string[];
  /** The raw loop has no parser, so it gets the URL list the crawlers discover. */
  urls: string[];
  pages: number;
  concurrency: number;
  /** A real site (bench:crawl site=PATH): one crawl from `seeds[0]` to this depth instead of the catalogue's split crawls. */
  maxDepth?: number;
  /** The built `wvr` CLI (bin.mjs), for the contender that runs it as a user does. */
  cli?: string;
  /** Crawls of the site the warm contender makes before the one on the clock (default 1): a long-running process's. */
  warmCrawls?: number;
}

export interface ContenderResult {
  name: string;
  pages: number;
  failed: number;
  elapsedMs: number;
  pagesPerSecond: number;
  /** CPU (user + system) of the contender's process over the work; for the CLI, the CLI process's. */
  cpuMs: number;
  /**
   * Minor page faults over the work (for the CLI, its process's whole life): first touches of memory, which cost 2 to
   * 16 µs each on the 2-core machines these runs were made on, the more the longer the host has had the memory back
   * (docs/benchmarks.md): a part of cpuMs that scales with memory taken fresh from the system rather than with work done.
   */
  minorFaults: number;
  /**
   * Bytes the process wrote (`wchar` in /proc/self/io: files, pipes and sockets) over the work, in MB; the CLI's over
   * its life. Null where there is no /proc (not Linux).
   */
  writtenMb: number | null;
  memory: MemoryReport;
  notes: Record<string, unknown>;
}

export interface Work {
  pages: number;
  failed: number;
  notes?: Record<string, unknown>;
  /**
   * When the crawler ran as another process (the CLI), that process's peak RSS and CPU replace this one's, and its
   * run (start to exit) replaces the clock: setting up before it (an account's credits) is not the crawl. When only
   * part of the work is the measured crawl (the warm engine's second crawl), its clock, CPU, faults and bytes replace
   * the whole work's (see startMeter); the peak RSS stays the whole process's.
   */
  peakRssMb?: number;
  cpuMs?: number;
  minorFaults?: number;
  writtenMb?: number | null;
  elapsedMs?: number;
}

/**
 * A new temp folder for a contender's data, removed as its process ends, after its result has gone: deleting a 40 MB
 * database or a thousand files is the bench's housekeeping, not the crawler's work, and stays off every contender's clock.
 */
export function tempFolder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * Runs one contender in this (child) process: memory is sampled from before the work starts,
 * the clock covers only the work, and the result goes back to the parent over IPC.
 */
export async function runContender(name: string | ((config: ContenderConfig) => string), work: (config: ContenderConfig) => Promise<Work>): Promise<void> {
  const config = await receiveConfig<ContenderConfig>();
  const memory = sampleMemory();
  const meter = startMeter();
  const done = await work(config);
  const measured = meter.read();
  const elapsedMs = done.elapsedMs ?? measured.elapsedMs;
  const result: ContenderResult = {
    name: typeof name === 'string' ? name : name(config),
    pages: done.pages,
    failed: done.failed,
    elapsedMs: Math.round(elapsedMs),
    pagesPerSecond: Math.round((done.pages / (elapsedMs / 1000)) * 10) / 10,
    cpuMs: Math.round(done.cpuMs ?? measured.cpuMs),
    minorFaults: done.minorFaults ?? measured.minorFaults,
    writtenMb: tenth(done.writtenMb === undefined ? measured.writtenMb : done.writtenMb),
    memory: { ...memory.stop(), ...(done.peakRssMb === undefined ? {} : { peakRssMb: done.peakRssMb }) },
    notes: done.notes ?? {},
  };
  await sendResult(result);
}

/** This process's clock, CPU, page faults and bytes written from now on: `read()` gives what passed since. */
export function startMeter(): { read(): { elapsedMs: number; cpuMs: number; minorFaults: number; writtenMb: number | null } } {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const faults = process.resourceUsage().minorPageFault;
  const written = bytesWritten();
  return {
    read() {
      const used = process.cpuUsage(cpu);
      return {
        elapsedMs: performance.now() - started,
        cpuMs: (used.user + used.system) / 1000,
        minorFaults: process.resourceUsage().minorPageFault - faults,
        writtenMb: mbWrittenSince(written),
      };
    },
  };
}

/** What this process has written so far, files, pipes and sockets alike; null without /proc (not Linux). */
function bytesWritten(): number | null {
  try {
    return Number(/wchar: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))![1]);
  } catch {
    return null;
  }
}

function mbWrittenSince(start: number | null): number | null {
  const now = bytesWritten();
  return start === null || now === null ? null : (now - start) / 1e6;
}

const tenth = (mb: number | null) => (mb === null ? null : Math.round(mb * 10) / 10);
