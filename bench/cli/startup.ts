/**
 * Start-up of the installed `wvr` binary: `--version`, `--help` and `credits` (which opens the local
 * engine), wall and CPU, median of `runs`, next to bare Node (the floor) and `npm --version` (a peer CLI)
 * measured in the same run. The packages are built, packed and installed with npm into a temp project
 * first, as a user gets them (or pass `project=DIR` to reuse an install made by an earlier run).
 *
 *   npx tsx bench/cli/startup.ts [runs=15] [project=DIR]
 */
import { spawnSync, execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installPacked } from '../../packages/cli/test/install-packed.js';
import { machine, percentile, writeResult } from '../lib/results.js';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.split('=') as [string, string]));
const runs = Number(args.runs ?? 15);
const project = args.project ?? mkdtempSync(join(tmpdir(), 'wvr-bench-cli-'));
const { bin } = args.project ? { bin: join(project, 'node_modules', 'wvr', 'dist', 'bin.js') } : await installPacked(project, [], (line) => console.log(line));
const data = mkdtempSync(join(tmpdir(), 'wvr-bench-cli-data-'));
console.log(`installed in ${project} (reuse it with project=${project})`);
const reportCpu = fileURLToPath(new URL('./report-cpu.mjs', import.meta.url));
const npmCli = execFileSync('npm', ['root', '-g'], { encoding: 'utf8' }).trim() + '/npm/bin/npm-cli.js';

const cases: { name: string; args: string[] }[] = [
  { name: 'node -e 0 (floor)', args: ['-e', '0'] },
  { name: 'npm --version (peer)', args: [npmCli, '--version'] },
  { name: 'wvr --version', args: [bin, '--version'] },
  { name: 'wvr --help', args: [bin, '--help'] },
  { name: 'wvr credits', args: [bin, '--data', data, 'credits'] },
];

const env = { ...process.env, WVR_API_URL: '', WVR_API_TOKEN: '', NODE_OPTIONS: '' };
const rows = cases.map(({ name, args: argv }) => {
  const wall: number[] = [];
  const cpu: number[] = [];
  spawnSync(process.execPath, ['--import', reportCpu, ...argv], { env, cwd: project }); // warm the file cache
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    const child = spawnSync(process.execPath, ['--import', reportCpu, ...argv], { env, cwd: project, encoding: 'utf8' });
    wall.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (child.status !== 0) throw new Error(`${name} exited ${child.status}: ${child.stderr}`);
    cpu.push(Number(/@cpu ([\d.]+)/.exec(child.stderr)?.[1]));
  }
  wall.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return { name, wallMedianMs: round(percentile(wall, 50)), wallP90Ms: round(percentile(wall, 90)), cpuMedianMs: round(percentile(cpu, 50)) };
});

const floor = rows[0]!.wallMedianMs;
console.table(rows.map((r) => ({ ...r, 'x node': round(r.wallMedianMs / floor) })));
console.log(`written to ${writeResult('cli-startup', { machine: machine(), runs, rows })}`);

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
