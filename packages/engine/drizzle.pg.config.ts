import { defineConfig } from 'drizzle-kit';

// The PostgreSQL driver's schema and migrations (store/pg/); drizzle.config.ts is SQLite's.
// Generate with `npx drizzle-kit generate --config drizzle.pg.config.ts`.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/store/pg/schema.ts',
  out: './drizzle-pg',
});
