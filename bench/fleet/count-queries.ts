/**
 * Loaded into each worker with `--import` when bench:fleet runs with `queries=1`: counts the statements
 * the process sends to PostgreSQL (every one goes through pg's Client#query, the pool's and drizzle's
 * alike), by statement shape, and writes them to `$WVR_BENCH_QUERIES/<pid>.json` when the process exits.
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(new URL('../../packages/engine/package.json', import.meta.url));
const pg = require('pg') as { Client: { prototype: { query: (...args: unknown[]) => unknown } } };
const counts = new Map<string, number>();
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
  const config = args[0] as string | { text?: string } | undefined;
  const text = typeof config === 'string' ? config : (config?.text ?? '?');
  const shape = text.replace(/\s+/g, ' ').trim().slice(0, 110);
  counts.set(shape, (counts.get(shape) ?? 0) + 1);
  return query.apply(this, args);
};
process.on('exit', () => {
  const dir = process.env.WVR_BENCH_QUERIES;
  if (dir) writeFileSync(join(dir, `${process.pid}.json`), JSON.stringify(Object.fromEntries(counts)));
});
