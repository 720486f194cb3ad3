import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const root = fileURLToPath(new URL('../../../', import.meta.url));

/** The folders under packages/ of the packages that are published. */
export const PUBLIC_PACKAGES = ['engine', 'sdk', 'server', 'cli'] as const;

/**
 * Builds each public package with its own tsup config, unless its dist is newer than everything it
 * is built from (a rerun after an unrelated change costs nothing). Each package builds from the
 * others' sources, so the order does not matter and they build side by side.
 */
export async function buildPublicPackages(): Promise<void> {
  await Promise.all(PUBLIC_PACKAGES.map(buildPackage));
}

/** Builds one public package as it is published (see buildPublicPackages); returns its folder. */
export async function buildPackage(dir: (typeof PUBLIC_PACKAGES)[number]): Promise<string> {
  const cwd = join(root, 'packages', dir);
  if (!isFresh(cwd)) await run(process.execPath, [join(root, 'node_modules', 'tsup', 'dist', 'cli-default.js')], { cwd, maxBuffer: 64 * 1024 * 1024 });
  return cwd;
}

function isFresh(cwd: string): boolean {
  const dist = join(cwd, 'dist');
  if (!existsSync(dist)) return false;
  const built = Math.min(...readdirSync(dist).map((f) => statSync(join(dist, f)).mtimeMs));
  // Sources of the package and of the workspace packages it bundles (the CLI: their code and the engine's migrations; the
  // others: types), and the build's own step after tsup (engine/build).
  const inputs = [
    join(cwd, 'package.json'),
    join(cwd, 'tsup.config.ts'),
    ...PUBLIC_PACKAGES.flatMap((p) => newestUnder(join(root, 'packages', p, 'src'))),
    ...['drizzle', 'drizzle-pg', 'build'].flatMap((folder) => newestUnder(join(root, 'packages', 'engine', folder))),
  ];
  return inputs.every((f) => statSync(f).mtimeMs <= built);
}

function newestUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && !/\.test\.tsx?$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}
