// Every capability's tables, for drizzle and drizzle-kit. Add one line per capability.
export * from '../accounts/tables.js';
export * from '../credits/tables.js';
