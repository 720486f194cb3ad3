// Every capability's tables, for drizzle and drizzle-kit. Add one line per capability.
export * from './tables/accounts.js';
export * from './tables/credits.js';
export * from './tables/notify.js';
export * from './tables/workflows.js';
export * from './tables/jobs.js';
export * from './tables/search.js';
export * from './tables/crawl.js';
export * from './tables/sessions.js';
export * from './tables/web.js';
