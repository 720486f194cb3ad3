import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
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
      : ['packages/*/src/**/*.test.ts', 'packages/*/src/**/*.test.tsx', 'packages/*/test/**/*.test.ts', 'packages/*/build/**/*.test.ts', 'examples/**/*.test.ts'],
    // Finds a PostgreSQL server (or starts one) and a migrated template for the engines' databases.
    globalSetup: postgresPass ? ['packages/engine/src/testing/postgres-pass.ts'] : [],
    // The PostgreSQL pass mostly waits on the database server, so two test files at once even on two cores
    // (vitest's default is one fewer than the cores): 7 min instead of 13 on the shared 2-core machine.
    ...(postgresPass ? { maxWorkers: Math.max(2, availableParallelism() - 1) } : {}),
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
