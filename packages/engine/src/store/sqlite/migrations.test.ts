import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { afterEach, describe, expect, it } from 'vitest';

const MIGRATIONS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'drizzle');

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The committed migrations up to (not including) `tag`, as a folder of their own: a database as an older release left it. */
function migrationsBefore(tag: string): string {
  const folder = join(dir!, 'before');
  cpSync(MIGRATIONS, folder, { recursive: true });
  const journalPath = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag === tag);
  expect(at).toBeGreaterThan(0);
  writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));
  return folder;
}

describe('SQLite migrations over data an older release wrote', () => {
  it('0016 moves every document’s graph scores beside it, and its row keeps the rest', () => {
    dir = mkdtempSync(join(tmpdir(), 'wvr-migrate-'));
    const sqlite = new Database(join(dir, 'wvr.db'));
    const db = drizzle(sqlite);
    migrate(db, { migrationsFolder: migrationsBefore('0016_crawl_document_scores') });
    sqlite
      .prepare(
        `INSERT INTO crawl_documents (crawl_id, url, seq, final_url, status_code, content_type, depth, text, markdown, links, metadata, from_cache, credits,
                                      importance, hub_score, authority_score, inlinks, outlinks, anchors, fetched_at)
         VALUES ('c1', 'https://a.test/', 1, 'https://a.test/', 200, 'text/html', 0, 'page text', '# page', '[]', '{}', 0, 1, 0.5, 0.25, 0.75, 3, 4, '["Home"]', 'x')`,
      )
      .run();
    migrate(db, { migrationsFolder: MIGRATIONS });
    expect(sqlite.prepare('SELECT * FROM crawl_document_scores').all()).toEqual([
      { crawl_id: 'c1', url: 'https://a.test/', importance: 0.5, hub_score: 0.25, authority_score: 0.75, inlinks: 3, outlinks: 4, anchors: '["Home"]' },
    ]);
    expect(sqlite.prepare('SELECT url, text, markdown, credits FROM crawl_documents').all()).toEqual([{ url: 'https://a.test/', text: 'page text', markdown: '# page', credits: 1 }]);
    const columns = (sqlite.prepare(`SELECT name FROM pragma_table_info('crawl_documents')`).all() as { name: string }[]).map((c) => c.name);
    expect(columns).not.toContain('importance');
    expect(columns).not.toContain('anchors');
    sqlite.close();
  });
});
