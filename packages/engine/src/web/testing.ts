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
