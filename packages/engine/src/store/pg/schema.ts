// Every PostgreSQL table, for drizzle and drizzle-kit (drizzle.pg.config.ts). One line per capability,
// as store/sqlite/schema.ts for SQLite; parity.test.ts fails when the two drift apart.
export * from './tables/accounts.js';
export * from './tables/credits.js';
export * from './tables/notify.js';
export * from './tables/workflows.js';
export * from './tables/jobs.js';
export * from './tables/search.js';
export * from './tables/crawl.js';
export * from './tables/sessions.js';
export * from './tables/web.js';
