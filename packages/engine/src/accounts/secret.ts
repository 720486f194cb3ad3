import type { EngineContext } from '../context.js';

const KEY = 'signing_secret';

/**
 * The secret that signs token bodies and webhooks: the configured one, else one generated on
 * first use and kept in the database so tokens stay valid across restarts.
 */
export async function signingSecret(ctx: EngineContext): Promise<string> {
  if (ctx.options.secret) return ctx.options.secret;
  const stored = await ctx.store.accounts.setting(KEY);
  if (stored !== undefined) return stored;
  return ctx.store.accounts.settingOrInit(KEY, ctx.random.bytes(32).toString('base64url'));
}
