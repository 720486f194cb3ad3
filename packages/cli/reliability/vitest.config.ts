import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** The reliability suite (`pnpm test:reliability`): real processes killed, sharing a folder, on a full disk, under load. */
export default defineConfig({
  root: fileURLToPath(new URL('../../..', import.meta.url)),
  test: {
    include: ['packages/cli/reliability/**/*.test.ts'],
    globalSetup: ['packages/cli/reliability/global-setup.ts'],
    testTimeout: 240_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One part at a time: each starts several engine processes of its own on a small machine.
    fileParallelism: false,
  },
});
