/**
 * Every TypeScript block in README.md and docs/*.md compiles against the packages as they are,
 * so the documentation cannot drift from the API again. Each block becomes one module in a
 * temporary folder beside this file (where @wvr/* resolve), checked by one tsc run.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const here = fileURLToPath(new URL('.', import.meta.url));
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

interface Block {
  page: string;
  line: number;
  code: string;
}

/** ```ts and ```typescript fences; a block can opt out with ```ts no-check (a fragment, not a program). */
function blocksOf(page: string): Block[] {
  const lines = readFileSync(join(root, page), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```(ts|typescript)(\s.*)?$/.exec(lines[i]!.trim());
    if (!fence || fence[2]?.includes('no-check')) continue;
    const start = i + 1;
    while (++i < lines.length && lines[i]!.trim() !== '```');
    blocks.push({ page, line: start + 1, code: lines.slice(start, i).join('\n') });
  }
  return blocks;
}

/**
 * What the pages set up once and then use in every snippet: the engine, a caller, an SDK client,
 * and the packages' entry points. A block that declares or imports a name itself gets none of it.
 * The prelude sits on the block's first line, so line numbers still match the page.
 */
const PRELUDE: Record<string, string> = {
  engine: "declare const engine: import('@wvr/engine').Engine;",
  principal: "declare const principal: import('@wvr/engine').Principal;",
  wvr: "declare const wvr: import('@wvr/sdk').WvrClient;",
  createClient: "import { createClient } from '@wvr/sdk';",
  paginate: "import { paginate } from '@wvr/sdk';",
  verifyWebhook: "import { verifyWebhook } from '@wvr/sdk';",
  createEngine: "import { createEngine } from '@wvr/engine';",
  z: "import { z } from 'zod';",
};

function preludeFor(code: string): string {
  const own = (name: string) =>
    new RegExp(`(const|let|var|function)\\s+${name}\\b|import\\s+(type\\s+)?(${name}\\b|\\{[^}]*\\b${name}\\b[^}]*\\})`).test(code);
  const used = (name: string) => new RegExp(`\\b${name}\\b`).test(code);
  return Object.entries(PRELUDE)
    .filter(([name]) => used(name) && !own(name))
    .map(([, line]) => line)
    .join(' ');
}

describe('TypeScript in the docs', () => {
  it('type-checks every block of README.md and docs/', () => {
    const blocks = pages.flatMap(blocksOf);
    expect(blocks.length).toBeGreaterThan(10);
    const dir = mkdtempSync(join(here, '.docs-check-'));
    try {
      const files = blocks.map((block, n) => {
        const file = `block-${n}.ts`;
        // `export {}` makes each block a module of its own (top-level await, no clashes between blocks).
        writeFileSync(join(dir, file), `${preludeFor(block.code)} ${block.code}\nexport {};\n`);
        return { file, block };
      });
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({ extends: '../../tsconfig.base.json', compilerOptions: { noUnusedLocals: false, noUnusedParameters: false, lib: ['ES2023', 'DOM'] }, include: ['*.ts'] }),
      );
      const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
      let output = '';
      try {
        execFileSync(process.execPath, [tsc, '--noEmit', '-p', dir], { encoding: 'utf8', stdio: 'pipe' });
      } catch (error) {
        output = (error as { stdout: string }).stdout;
      }
      // Point each diagnostic at the page and line it came from.
      const problems = output
        .split('\n')
        .filter((l) => l.includes('error TS'))
        .map((l) => {
          const m = /block-(\d+)\.ts\((\d+),\d+\): (.*)$/.exec(l);
          if (!m) return l;
          const { block } = files[Number(m[1])]!;
          return `${block.page}:${block.line + Number(m[2]) - 1}: ${m[3]}`;
        });
      expect(problems, `in ${relative(root, dir)}`).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
