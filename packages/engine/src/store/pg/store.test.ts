import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createPgStore } from './index.js';
import { freshDatabase, type TestDatabase } from './testing.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await freshDatabase('store');
}, 120_000);
afterAll(() => database.drop(), 60_000);

async function appliedMigrations(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM drizzle.__drizzle_migrations');
    return Number(rows[0]!.n);
  } finally {
    await client.end();
  }
}

describe('createPgStore', () => {
  it('migrates an empty database before the first statement, once, when several stores start on it at once', async () => {
    const stores = [1, 2, 3].map(() => createPgStore(database.url, { max: 2 }));
    try {
      // No ready() first: the ports' own first statements wait for the migration.
      const found = await Promise.all(stores.map((store, i) => store.jobs.get(`missing-${i}`)));
      expect(found).toEqual([undefined, undefined, undefined]);
      await Promise.all(stores.map((store) => store.ready()));
      const applied = await appliedMigrations(database.url);
      expect(applied).toBeGreaterThan(0);
      // Each migration recorded once, however many stores raced to apply it.
      const again = createPgStore(database.url);
      await again.ready();
      await again.close();
      expect(await appliedMigrations(database.url)).toBe(applied);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });

  it('says why it cannot serve, and tries again on the next statement once the database is there', async () => {
    const url = new URL(database.url);
    url.pathname = `/${url.pathname.slice(1)}_later`;
    const store = createPgStore(url.toString(), { max: 2 });
    try {
      await expect(store.ready()).rejects.toThrow(/does not exist/);
      await expect(store.jobs.get('x')).rejects.toThrow(/does not exist/);
      const admin = new pg.Client({ connectionString: database.url });
      await admin.connect();
      await admin.query(`CREATE DATABASE "${url.pathname.slice(1)}"`);
      await admin.end();
      await store.ready();
      expect(await store.jobs.get('x')).toBeUndefined();
    } finally {
      await store.close();
      const admin = new pg.Client({ connectionString: database.url });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS "${url.pathname.slice(1)}" WITH (FORCE)`);
      await admin.end();
    }
  });
});
