// Every capability's tables, for drizzle and drizzle-kit. Add one line per capability.
export * from '../accounts/tables.js';
export * from '../credits/tables.js';
export * from '../notify/tables.js';
export * from '../workflows/tables.js';
export * from '../jobs/tables.js';
export * from '../search/tables.js';
export * from '../crawl/tables.js';
export * from '../sessions/tables.js';
export * from '../web/tables.js';
