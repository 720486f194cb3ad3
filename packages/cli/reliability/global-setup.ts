import { buildEntry } from '../../../bench/lib/build.js';

/**
 * The CLI the suite starts and kills dozens of times runs bundled (as the published `wvr` does),
 * not under tsx: booting through tsx's transform takes several times longer on a loaded machine.
 */
export default async function setup(): Promise<void> {
  process.env.WVR_RELIABILITY_CLI = await buildEntry(new URL('../src/bin.ts', import.meta.url).pathname);
}
