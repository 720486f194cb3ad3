import { cpSync, readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';
import { asciiOutput } from '../engine/build/ascii-output.js';

/**
 * What stays outside the bundle: the package's `dependencies`, pg's optional native driver and ink's developer tools,
 * both loaded only on demand.
 */
const external = [...Object.keys((JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> }).dependencies), 'pg-native', 'react-devtools-core'];

/**
 * The CLI is an application, not a library: its code, the engine, server and SDK it runs, and every pure-JavaScript
 * package under them are bundled into a few chunks. Loaded file by file, the 700-odd modules behind a command that
 * opens the local engine took half of its start (`wvr credits`: about 0.7 s, 0.4 s bundled; docs/benchmarks.md).
 * What stays outside is what the package.json's `dependencies` list: native addons (better-sqlite3), packages that
 * read files of their own at run time (playwright-core, pdf-parse, the API reference page), and those loaded by name on
 * first use (undici, tinyld, he, css-select, compromise, nodemailer, yaml). The terminal views' ink and React are
 * bundled, in the views' own chunks: loaded file by file, their few hundred modules took 0.3 s of a live view's start
 * (docs/benchmarks.md). ink's developer tools (react-devtools-core, loaded only with DEV=true) are left out.
 *
 * Splitting keeps each command's dynamic imports (the server, ink, MCP) chunks of their own, loaded on use. The page
 * reader runs in a worker started from `parse-worker.js` beside the engine's code, and the store looks for its
 * migrations beside it too: both are put in `dist/`. The chunks are then made plain ASCII (engine/build/ascii-output.ts).
 */
export default defineConfig({
  entry: { bin: 'src/bin.ts', 'parse-worker': '../engine/src/html/parse-worker.ts' },
  format: ['esm'],
  dts: false,
  clean: true,
  target: 'node20',
  splitting: true,
  // Every other import, with its subpaths: the workspace packages and what they import.
  // Not a dependency, so named here too: tsup leaves out only what the package.json lists.
  external: ['react-devtools-core'],
  noExternal: [new RegExp(`^(?!(${external.map((name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})(/|$))`)],
  // Bundled CommonJS asks `require` for Node's own modules, which an ES module does not have.
  banner: { js: "import { createRequire as __wvrCreateRequire } from 'node:module'; const require = __wvrCreateRequire(import.meta.url);" },
  onSuccess: async () => {
    for (const folder of ['drizzle', 'drizzle-pg']) cpSync(`../engine/${folder}`, `dist/${folder}`, { recursive: true });
    // Each start of `wvr` and of its page reader compiles these chunks: held as one byte a character, not two.
    asciiOutput('dist');
  },
});
