import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';

/**
 * A fresh, empty PostgreSQL database made synchronously, for test engines (`openTestEngine` is
 * synchronous, as `createEngine` is; the engine migrates it on first use). The statements run in a
 * short child process because node-postgres has no synchronous client. On `WVR_TEST_DATABASE_URL` or
 * the service at 127.0.0.1:5432; `drop()` removes it (also synchronously, so a dispose cannot leave it).
 */
export function createTestDatabaseSync(): { url: string; drop(): void } {
  const base = process.env.WVR_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const name = `wvr_engine_${process.pid}_${randomBytes(4).toString('hex')}`;
  admin(base, `CREATE DATABASE "${name}"`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(base, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

const pgPath = createRequire(import.meta.url).resolve('pg');

function admin(url: string, statement: string): void {
  const script = `const pg = require(${JSON.stringify(pgPath)}); const c = new pg.Client({ connectionString: process.env.URL });
c.connect().then(() => c.query(process.env.SQL)).then(() => c.end(), (e) => { console.error(e.message); process.exit(1); });`;
  const result = spawnSync(process.execPath, ['-e', script], { env: { ...process.env, URL: url, SQL: statement }, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`PostgreSQL for test engines (${statement}): ${result.stderr.trim() || `exit ${result.status}`}`);
}
