import { eq } from 'drizzle-orm';
import type { EngineContext } from '../context.js';
import { settings } from '../store/sqlite/tables/accounts.js';

const KEY = 'signing_secret';

/**
 * The secret that signs token bodies and webhooks: the configured one, else one generated on
 * first use and kept in the database so tokens stay valid across restarts.
 */
export function signingSecret(ctx: EngineContext): string {
  if (ctx.options.secret) return ctx.options.secret;
  const row = ctx.db.select().from(settings).where(eq(settings.key, KEY)).get();
  if (row) return row.value;
  const value = ctx.random.bytes(32).toString('base64url');
  ctx.db.insert(settings).values({ key: KEY, value }).onConflictDoNothing().run();
  return ctx.db.select().from(settings).where(eq(settings.key, KEY)).get()!.value;
}
