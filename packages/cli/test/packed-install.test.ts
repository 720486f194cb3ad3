/**
 * The released packages as a user gets them: build the public packages, pack them with pnpm (which
 * rewrites workspace:* and applies publishConfig), install the tarballs with plain npm into a project
 * outside the workspace, and use them there: the `wvr` binary, MCP over stdio, plain-Node ESM imports
 * and a TypeScript consumer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startLocalWeb, type LocalWeb } from '@wvr/testkit';
import { root } from './build-packages.js';
import { installPacked } from './install-packed.js';

const run = promisify(execFile);
const SETUP_MS = 15 * 60_000;

let project: string;
let data: string;
let web: LocalWeb;
let bin: string;

/** Runs the installed CLI as a shell would, with no workspace settings leaking in. */
async function wvr(args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, [bin, '--data', data, ...args], { cwd: project, env: cleanEnv(), maxBuffer: 64 * 1024 * 1024 });
}

const cleanEnv = () => ({ ...process.env, WVR_API_URL: '', WVR_API_TOKEN: '', WVR_USER: '', WVR_DATA_DIR: '', NODE_OPTIONS: '' });

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), 'wvr-packed-'));
  data = join(project, 'data');
  ({ bin } = await installPacked(project, ['@types/node@20'], (line) => console.log(`packed install: ${line}`)));
  web = await startLocalWeb({ sizes: { products: 40 } });
}, SETUP_MS);

afterAll(async () => {
  await web?.close();
  if (project) rmSync(project, { recursive: true, force: true });
}, 300_000);

describe('the packed packages installed with npm outside the workspace', () => {
  it('ship only JavaScript to run, with type declarations for the libraries and the drizzle migrations (the CLI with its own copy)', () => {
    for (const name of ['wvr', '@wvr/engine', '@wvr/sdk', '@wvr/server']) {
      const dir = join(project, 'node_modules', name);
      const files = walk(dir);
      expect(files.filter((f) => /\.(ts|tsx)$/.test(f) && !/\.d\.c?ts$/.test(f)), name).toEqual([]);
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
      expect(Object.values(pkg.dependencies ?? {}).filter((v) => v.startsWith('workspace:')), name).toEqual([]);
    }
    expect(walk(join(project, 'node_modules', '@wvr/engine', 'drizzle')).some((f) => f.endsWith('.sql'))).toBe(true);
    // The CLI bundles the engine: its page reader's worker and the migrations sit beside the bundle, where the engine
    // looks for them (without the worker, pages would quietly be read on the main thread).
    const cli = join(project, 'node_modules', 'wvr', 'dist');
    expect(existsSync(join(cli, 'parse-worker.js'))).toBe(true);
    for (const folder of ['drizzle', 'drizzle-pg']) expect(walk(join(cli, folder)).some((f) => f.endsWith('.sql')), folder).toBe(true);
    for (const name of ['@wvr/engine', '@wvr/sdk', '@wvr/server']) expect(existsSync(join(project, 'node_modules', name, 'dist', 'index.d.ts')), name).toBe(true);
  });

  it('ship their JavaScript as plain ASCII, which V8 holds as one byte a character (engine/build/ascii-output.ts)', () => {
    for (const name of ['wvr', '@wvr/engine', '@wvr/sdk', '@wvr/server']) {
      const scripts = walk(join(project, 'node_modules', name, 'dist')).filter((f) => f.endsWith('.js'));
      expect(scripts.length, name).toBeGreaterThan(0);
      expect(scripts.filter((f) => /[^\x00-\x7f]/.test(readFileSync(f, 'latin1'))), name).toEqual([]);
    }
  });

  it("starts the CLI's page reader from its bundle, and it reads a page (the engine's ParsePool protocol)", async () => {
    const reader = new Worker(join(project, 'node_modules', 'wvr', 'dist', 'parse-worker.js'), { workerData: { loaded: new Int32Array(new SharedArrayBuffer(4)) } });
    try {
      const answer = new Promise<{ id: number; page?: { title: string; links: { url: string }[] } }>((resolve, reject) => {
        reader.once('message', resolve);
        reader.once('error', reject);
      });
      reader.postMessage({ id: 1, html: '<title>Packed</title><p>Read in the <a href="/next">reader</a>.</p>', url: 'http://site.test/', options: {} });
      expect(await answer).toMatchObject({ id: 1, page: { title: 'Packed', links: [{ url: 'http://site.test/next' }] } });
    } finally {
      await reader.terminate();
    }
  });

  it('runs `wvr --version` and a small crawl of a loopback site on a fresh data folder', { timeout: 300_000 }, async () => {
    const version = JSON.parse(readFileSync(join(project, 'node_modules', 'wvr', 'package.json'), 'utf8')).version as string;
    expect((await wvr(['--version'])).stdout.trim()).toBe(version);
    const { stdout } = await wvr(['crawl', web.catalogue, '--max-pages', '5', '--json']);
    const crawl = JSON.parse(stdout) as { status: string; stats: { pages_crawled: number }; documents: { url: string }[] };
    expect(crawl.status).toBe('completed');
    expect(crawl.stats.pages_crawled).toBe(5);
    expect(crawl.documents.every((d) => d.url.startsWith(web.catalogue))).toBe(true);
  });

  it('serves MCP over stdio to the MCP SDK client', { timeout: 300_000 }, async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [bin, '--data', data, 'mcp'], env: cleanEnv() as Record<string, string>, stderr: 'pipe', cwd: project });
    const client = new Client({ name: 'packed-install-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['credits_balance', 'user_me']));
      const me = await client.callTool({ name: 'user_me', arguments: {} });
      expect(me.structuredContent).toMatchObject({ plan: 'local' });
    } finally {
      await client.close();
    }
  });

  it('imports @wvr/sdk and @wvr/engine from plain Node ESM', { timeout: 300_000 }, async () => {
    const script = [
      "import { createClient, WvrApiError } from '@wvr/sdk';",
      "import { createEngine, ENGINE_VERSION } from '@wvr/engine';",
      "import { createServer } from '@wvr/server';",
      `const engine = createEngine({ dataDir: ${JSON.stringify(join(project, 'esm-data'))} });`,
      "const user = await engine.accounts.ensureUser({ email: 'esm@x.test' });",
      'const balance = await engine.credits.balance(user.id);',
      'await engine.close();',
      "const client = createClient({ baseUrl: 'http://127.0.0.1:9' });",
      'console.log(JSON.stringify({ version: ENGINE_VERSION, balance, client: typeof client.crawls.create, error: typeof WvrApiError, server: typeof createServer }));',
    ].join('\n');
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project, env: cleanEnv() });
    expect(JSON.parse(stdout)).toEqual({ version: expect.any(String), balance: 100, client: 'function', error: 'function', server: 'function' });
  });

  it('type-checks a TypeScript consumer against the published declarations', async () => {
    writeFileSync(
      join(project, 'consumer.ts'),
      [
        "import { createClient, type WvrClient } from '@wvr/sdk';",
        "import { createEngine, type Engine } from '@wvr/engine';",
        "import { INTENT_TYPES } from '@wvr/engine/vocabulary';",
        "const client: WvrClient = createClient({ baseUrl: 'http://127.0.0.1:8787', token: 'wvr_x' });",
        "export const crawl = client.crawls.create({ urls: ['https://example.com'], max_pages: 20, expansion: 'internal' });",
        "export const engine: Engine = createEngine({ dataDir: './data' });",
        'export const intents: readonly string[] = INTENT_TYPES;',
        '// @ts-expect-error max_pages is a number',
        "export const wrong = client.crawls.create({ urls: ['https://example.com'], max_pages: 'many' });",
      ].join('\n'),
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] }, files: ['consumer.ts'] }),
    );
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    await expect(run(process.execPath, [tsc, '-p', project], { cwd: project })).resolves.toBeDefined();
  }, 300_000);
});

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (e.name === 'node_modules' ? [] : walk(join(dir, e.name))) : [join(dir, e.name)],
  );
}
