import { describe, expect, it } from 'vitest';
import { openDatabase } from '../sqlite/open.js';
import { usePostgres } from './testing.js';

/**
 * Both drivers hold the same tables with the same columns (name and nullability), read from the
 * real databases after their migrations, so a column added to one schema and not the other fails here.
 */
type Shape = Record<string, Record<string, { notNull: boolean }>>;

// SQLite's FTS5 virtual table and the shadow tables FTS5 creates for it have no PostgreSQL twin
// table for table: PostgreSQL keeps the same text columns in `search_fts` plus a weighted tsvector
// (see tables/search.ts), checked separately below. The migration journals are each driver's own.
const SQLITE_ONLY = /^(sqlite_.*|__drizzle_migrations|search_fts(_data|_idx|_content|_docsize|_config)?)$/;
const PG_ONLY = /^(search_fts)$/;
/** Columns SQLite has as its implicit rowid, which pragma_table_info does not list. */
const PG_ROWID = new Set(['crawl_frontier.id']);

const pgDb = usePostgres('parity', { max: 2 });

function sqliteShape(): { shape: Shape; fts: string[] } {
  const { sqlite } = openDatabase(':memory:');
  try {
    const names = sqlite.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as { name: string }[];
    const shape: Shape = {};
    for (const { name } of names) {
      if (SQLITE_ONLY.test(name)) continue;
      const columns = sqlite.prepare(`SELECT name, "notnull" AS required, pk FROM pragma_table_info(?)`).all(name) as { name: string; required: number; pk: number }[];
      // SQLite lets a non-integer PRIMARY KEY column hold NULL unless declared NOT NULL; drizzle always declares it.
      shape[name] = Object.fromEntries(columns.map((c) => [c.name, { notNull: c.required === 1 || c.pk > 0 }]));
    }
    const fts = (sqlite.prepare(`SELECT name FROM pragma_table_info('search_fts')`).all() as { name: string }[]).map((c) => c.name);
    return { shape, fts };
  } finally {
    sqlite.close();
  }
}

async function pgShape(): Promise<{ shape: Shape; fts: string[] }> {
  const { rows } = await pgDb.pool.query<{ table_name: string; column_name: string; is_nullable: string }>(
    `SELECT table_name, column_name, is_nullable FROM information_schema.columns
     WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
  );
  const shape: Shape = {};
  const fts: string[] = [];
  for (const row of rows) {
    if (row.table_name === 'search_fts') fts.push(row.column_name);
    if (PG_ONLY.test(row.table_name) || PG_ROWID.has(`${row.table_name}.${row.column_name}`)) continue;
    (shape[row.table_name] ??= {})[row.column_name] = { notNull: row.is_nullable === 'NO' };
  }
  return { shape, fts };
}

describe('PostgreSQL schema parity with SQLite', () => {
  it('has the same tables, columns and nullability', async () => {
    const sqlite = sqliteShape();
    const postgres = await pgShape();
    expect(Object.keys(postgres.shape).sort()).toEqual(Object.keys(sqlite.shape).sort());
    for (const table of Object.keys(sqlite.shape)) {
      expect({ table, columns: postgres.shape[table] }).toEqual({ table, columns: sqlite.shape[table] });
    }
    expect(Object.keys(sqlite.shape).length).toBeGreaterThan(20);
  });

  it('keeps every FTS5 column in search_fts, plus the page id and the weighted document', async () => {
    const sqlite = sqliteShape();
    const postgres = await pgShape();
    expect(sqlite.fts.length).toBeGreaterThan(0);
    expect(postgres.fts.sort()).toEqual([...sqlite.fts, 'page_id', 'document'].sort());
  });

  it('ranks a title match above a body match through the GIN-indexed tsvector', async () => {
    const { pool } = pgDb;
    const ids = await pool.query<{ id: string }>(
      `INSERT INTO search_pages (url, scope, domain, title, description, schema_types, fetched_at)
       VALUES ('https://a.test/', 'public', 'a.test', 'a', '', '[]', 'x'), ('https://b.test/', 'public', 'b.test', 'b', '', '[]', 'x')
       RETURNING id`,
    );
    const [titled, bodied] = ids.rows.map((r) => Number(r.id));
    await pool.query(`INSERT INTO search_fts (page_id, title, body) VALUES ($1, 'Gardening tools', 'rakes'), ($2, 'Other', 'a page about gardening')`, [titled, bodied]);
    const { rows } = await pool.query<{ page_id: string }>(
      `SELECT page_id FROM search_fts, websearch_to_tsquery('english', 'gardening') q
       WHERE document @@ q ORDER BY ts_rank_cd(document, q) DESC`,
    );
    expect(rows.map((r) => Number(r.page_id))).toEqual([titled, bodied]);
    // The page's text goes with the page, as SQLite's delete trigger does for FTS5.
    await pool.query('DELETE FROM search_pages WHERE id = $1', [titled]);
    expect((await pool.query('SELECT 1 FROM search_fts WHERE page_id = $1', [titled])).rowCount).toBe(0);
  });
});
