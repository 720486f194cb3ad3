/**
 * The pending changesets make a release plan: `changeset version` refuses the whole set when one of them names a
 * package the workspace does not have (five named the CLI `@wvr/cli`; its package is `wvr`), so a release would stop
 * at its first step. `changeset status` reads them the same way.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

it('every pending changeset names packages of this workspace (`changeset status` makes a plan)', async () => {
  const status = await promisify(execFile)(process.execPath, ['node_modules/@changesets/cli/bin.js', 'status'], { cwd: root }).catch((error: { stdout: string; stderr: string }) => error);
  expect(`${status.stdout}${status.stderr}`).not.toMatch(/error/);
  // "Packages to be bumped at minor", or after a release "NO packages to be bumped at patch": a plan either way.
  expect(status.stdout).toMatch(/packages to be bumped/i);
}, 60_000);
