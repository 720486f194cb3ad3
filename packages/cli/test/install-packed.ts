import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { buildPublicPackages, PUBLIC_PACKAGES, root } from './build-packages.js';

const run = promisify(execFile);

export interface PackedInstall {
  /** The consumer project the tarballs were installed into. */
  project: string;
  /** The installed `wvr` binary (a JavaScript file; run it with node). */
  bin: string;
}

/**
 * Builds the public packages, packs them with pnpm (workspace:* rewritten, publishConfig applied) and
 * installs the tarballs with plain npm into `project`, a folder outside the workspace. `extra` are
 * more packages for the consumer (e.g. @types/node); `log` hears how long each step took.
 */
export async function installPacked(project: string, extra: string[] = [], log: (line: string) => void = () => {}): Promise<PackedInstall> {
  let at = Date.now();
  const step = (what: string) => {
    log(`${what} in ${((Date.now() - at) / 1000).toFixed(1)} s`);
    at = Date.now();
  };
  await buildPublicPackages();
  step('built');
  const tarballs = join(project, 'tarballs');
  mkdirSync(tarballs, { recursive: true });
  await Promise.all(PUBLIC_PACKAGES.map((dir) => run('npx', ['-y', 'pnpm@10', 'pack', '--pack-destination', tarballs], { cwd: join(root, 'packages', dir) })));
  step('packed');
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  // Install scripts are skipped and better-sqlite3's addon is taken from the workspace when the version
  // matches (the same Node, the same source): compiling SQLite again takes minutes and needs node headers.
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', ...extra, ...readdirSync(tarballs).map((f) => join(tarballs, f))], {
    cwd: project,
    maxBuffer: 64 * 1024 * 1024,
  });
  await provideSqliteAddon(project);
  step('installed with npm');
  const pkg = join(project, 'node_modules', 'wvr');
  return { project, bin: join(pkg, (JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { bin: { wvr: string } }).bin.wvr) };
}

/** Copies the workspace's compiled better-sqlite3 addon when the installed version is the same; else builds it. */
async function provideSqliteAddon(project: string): Promise<void> {
  const installed = join(project, 'node_modules', 'better-sqlite3');
  const workspace = dirname(createRequire(join(root, 'packages', 'engine', 'package.json')).resolve('better-sqlite3/package.json'));
  const version = (dir: string) => (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
  const addon = join('build', 'Release', 'better_sqlite3.node');
  if (version(installed) === version(workspace) && existsSync(join(workspace, addon))) {
    mkdirSync(join(installed, 'build', 'Release'), { recursive: true });
    copyFileSync(join(workspace, addon), join(installed, addon));
  } else {
    await run('npm', ['rebuild', 'better-sqlite3'], { cwd: project });
  }
}
