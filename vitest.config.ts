import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * `WVR_TEST_STORE=postgres` is the PostgreSQL pass (`pnpm test:pg`): the engine's tests that open test
 * engines run again, each engine on PostgreSQL (testing/engine.ts). Only those files: the others do not
 * read the variable, so they would repeat the first pass (the PostgreSQL driver's own tests and the ones
 * of several engines on one database already run on both drivers there).
 */
const postgresPass = process.env.WVR_TEST_STORE === 'postgres';

/** Engine test files that open test engines (openTestEngine, or openLab over it). */
function engineTestsOnTheStore(): string[] {
  const root = 'packages/engine/src';
  return (readdirSync(root, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => join(root, file))
    .filter((file) => /\b(openTestEngine|openLab)\(/.test(readFileSync(file, 'utf8')));
}

export default defineConfig({
  test: {
    include: postgresPass
      ? engineTestsOnTheStore()
      : ['packages/*/src/**/*.test.ts', 'packages/*/src/**/*.test.tsx', 'packages/*/test/**/*.test.ts', 'examples/**/*.test.ts'],
    // Finds a PostgreSQL server (or starts one) and a migrated template for the engines' databases.
    globalSetup: postgresPass ? ['packages/engine/src/testing/postgres-pass.ts'] : [],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
