/**
 * Reads a .cpuprofile (from `bench:crawl -- profile=wvr`) and prints the functions with the most
 * self time, and the share of time spent under each package / source folder.
 *
 *   npx tsx crawl/top-frames.ts bench/.results/profiles/<file>.cpuprofile [top=30]
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: Node[];
  startTime: number;
  endTime: number;
  samples: number[];
}

const file = process.argv[2];
if (!file) throw new Error('usage: top-frames.ts <file.cpuprofile> [top]');
const top = Number(process.argv[3] ?? 30);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const totalMs = (profile.endTime - profile.startTime) / 1000;
const perSampleMs = totalMs / profile.samples.length;

const hits = new Map<number, number>();
for (const s of profile.samples) hits.set(s, (hits.get(s) ?? 0) + 1);

const where = (url: string) => {
  const pkg = url.match(/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1]!;
  const src = url.match(/packages\/([^/]+)\/src\/([^/]+)/);
  if (src) return `@wvr/${src[1]}/${src[2]}`;
  if (url.startsWith('node:') || url === '') return url || '(native/vm)';
  return url.replace(/^.*\/bench\//, 'bench/');
};

const byFrame = new Map<string, number>();
const byPlace = new Map<string, number>();
for (const node of profile.nodes) {
  const n = hits.get(node.id) ?? 0;
  if (n === 0) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  const key = `${functionName || '(anonymous)'}  ${where(url)}${url ? `:${lineNumber + 1}` : ''}`;
  byFrame.set(key, (byFrame.get(key) ?? 0) + n);
  const place = where(url);
  byPlace.set(place, (byPlace.get(place) ?? 0) + n);
}
const show = (m: Map<string, number>, k: number) =>
  [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([name, n]) => `${((n / profile.samples.length) * 100).toFixed(1).padStart(5)}%  ${(n * perSampleMs).toFixed(0).padStart(6)} ms  ${name}`)
    .join('\n');
console.log(`profile ${totalMs.toFixed(0)} ms, ${profile.samples.length} samples\n\nself time by place:\n${show(byPlace, 20)}\n\ntop frames by self time:\n${show(byFrame, top)}`);
