import { expect } from 'vitest';
import { labSite, startSite, type LabOptions, type RequestLogEntry } from '@wvr/testkit';
import type { EngineOptions } from '../core/options.js';
import { openTestEngine, type TestEngine } from '../testing/engine.js';

export interface Lab extends TestEngine {
  origin: string;
  /** Server-side log of every request the lab received. */
  log: RequestLogEntry[];
  /** Log entries for one path (with query), in arrival order. */
  hits(path: string): RequestLogEntry[];
}

/** A real engine on a temp SQLite file and a fresh lab site on 127.0.0.1, private network allowed. */
export async function openLab(lab: LabOptions = {}, options: EngineOptions = {}): Promise<Lab> {
  const log: RequestLogEntry[] = [];
  const site = await startSite('127.0.0.1', labSite(lab), log);
  const opened = openTestEngine({ allowPrivateNetwork: true, ...options });
  return {
    ...opened,
    origin: site.origin,
    log,
    hits: (path) => log.filter((entry) => entry.path === path),
    async dispose() {
      await opened.dispose();
      await site.close();
    },
  };
}

/**
 * Requests leave spaced by the delay, but the server notes each when its own event loop gets to it,
 * and on a loaded machine that can be tens of ms late for one request and not the next (seen: 346 ms
 * between two sends 400 ms apart). So every pair is checked against the delays between them, less a
 * jitter allowance well below the delay: a request sent without waiting still fails by a wide margin.
 * The server, the engines and their timers share one event loop here; in the PostgreSQL pass (two test
 * files at once on two cores) one arrival was noted 62 ms late (237 ms between two sends 300 ms apart),
 * and with two worker processes beside it (crawl/fleet.test.ts) 84 ms late (216 ms).
 */
const ARRIVAL_JITTER_MS = 100;
export function expectSpaced(times: number[], delayMs: number): void {
  for (let i = 0; i < times.length; i++) {
    for (let j = i + 1; j < times.length; j++) expect(times[j]! - times[i]!).toBeGreaterThanOrEqual((j - i) * delayMs - ARRIVAL_JITTER_MS);
  }
}
