import { readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { toAscii } from '../../packages/engine/build/ascii-output.js';
import { resultsDir } from './results.js';

/**
 * Contenders run as plain JavaScript, not under tsx: tsx's on-the-fly transform of the engine's
 * TypeScript sources costs the process over 100 MB of RSS that a built engine never pays, and
 * that would be measured as the crawler's memory. Our TypeScript (the bench file and the
 * @wvr/* workspace sources) is bundled; every npm dependency stays external, imported by its
 * absolute path, so it loads exactly as it does in production.
 */
const externalDependencies: Plugin = {
  name: 'external-dependencies',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith('@wvr/') || args.pluginData === 'resolving') return undefined;
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      const resolved = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: 'resolving' });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      return { path: resolved.path, external: true };
    });
  },
};

/**
 * Workspace sources keep their own import.meta.url, so the engine still finds its drizzle/ folder.
 * The page-reader pool is the exception: it starts `parse-worker.js` from beside the bundle, as from
 * beside a built engine, and `buildEntry` puts it there.
 */
const ownImportMetaUrl: Plugin = {
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /[\\/]packages[\\/][^\\/]+[\\/]src[\\/].*\.ts$/ }, async (args) => {
      if (args.path.endsWith(PARSE_POOL)) return undefined;
      const source = await readFile(args.path, 'utf8');
      return { contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader: 'ts' };
    });
  },
};

const PARSE_POOL = join('html', 'parse-pool.ts');
const parseWorker = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'packages', 'engine', 'src', 'html', 'parse-worker.ts');

/**
 * Bundles one entry file into bench/.results/build/<name>.mjs (and the engine's page-reader worker beside it), made
 * plain ASCII as the published packages are (engine/build/ascii-output.ts); returns its path.
 */
export async function buildEntry(entry: string): Promise<string> {
  const dir = join(resultsDir, 'build');
  const outfile = join(dir, `${basename(entry).replace(/\.ts$/, '')}.mjs`);
  await bundle(parseWorker, join(dir, 'parse-worker.js'));
  await bundle(entry, outfile);
  return outfile;
}

async function bundle(entry: string, outfile: string): Promise<void> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    plugins: [externalDependencies, ownImportMetaUrl],
    logLevel: 'warning',
  });
  // As the published engine is (engine/tsup.config.ts): plain ASCII, one byte a character for V8.
  await writeFile(outfile, toAscii(await readFile(outfile, 'utf8'), outfile));
}
