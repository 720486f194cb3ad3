import { Command, InvalidArgumentError } from 'commander';
import { contextOf, withClient, withLocalEngine } from '../context.js';
import { emit, table } from '../output/print.js';
import { positiveInt } from './parse.js';
import { CliError } from '../output/errors.js';
import type { Scope } from '@wvr/engine';

export function tokensCommand(): Command {
  const tokens = new Command('tokens').description('create, list and revoke API tokens');

  tokens
    .command('create')
    .description('create an API token (shown once); locally, --user names the account, created when new')
    .option('--plan <plan>', 'free, developer or pro (local only)', plan)
    .option('--scopes <list>', 'comma-separated: search,crawl,workflow,sessions', (v) => v.split(',').map((s) => s.trim()))
    .option('--name <name>', 'label for the token', 'cli')
    .option('--expires-in-days <days>', 'expiry in days (1-365)', positiveInt)
    .action(async (opts: { plan?: 'free' | 'developer' | 'pro'; scopes?: string[]; name: string; expiresInDays?: number }, command: Command) => {
      const ctx = contextOf(command);
      const body = {
        name: opts.name,
        ...(opts.scopes ? { scopes: opts.scopes as Scope[] } : {}),
        ...(opts.expiresInDays ? { expires_in_days: opts.expiresInDays } : {}),
      };
      // Remote: a token for the caller's own account. Local: the operator creates the --user account (and plan) too.
      const created = ctx.options.remote
        ? await withClient(ctx, (client) => {
            if (opts.plan) throw new CliError('--plan only applies to the local engine.', 'local_only', 2);
            return client.tokens.create(body);
          })
        : await withLocalEngine(ctx, async (engine) => {
            const user = await engine.accounts.ensureUser({ email: ctx.options.user, ...(opts.plan ? { plan: opts.plan } : {}) });
            return engine.tokens.issue(user.id, body);
          });
      emit(ctx.output, created, (t) =>
        [
          t.token,
          '',
          `Token "${t.name}" (${t.id}) with scopes ${t.scopes.join(', ')}${t.expires_at ? `, expires ${t.expires_at}` : ''}.`,
          'Store it now: it is not shown again.',
        ].join('\n'),
      );
    });

  tokens
    .command('list')
    .description('list your tokens (never their secrets)')
    .action(async (_opts, command: Command) => {
      const ctx = contextOf(command);
      const list = await withClient(ctx, (client) => client.tokens.list());
      emit(ctx.output, list, (l) =>
        table(
          l.data.map((t) => ({ ...t, status: t.revoked_at ? 'revoked' : 'active' })),
          ['id', 'name', 'prefix', 'scopes', 'status', 'created_at', 'expires_at', 'last_used_at'],
        ),
      );
    });

  tokens
    .command('revoke <id>')
    .description('revoke a token at once')
    .action(async (id: string, _opts, command: Command) => {
      const ctx = contextOf(command);
      const revoked = await withClient(ctx, (client) => client.tokens.revoke(id));
      emit(ctx.output, revoked, (t) => `Revoked token "${t.name}" (${t.id}).`);
    });

  return tokens;
}

function plan(value: string): 'free' | 'developer' | 'pro' {
  if (value === 'free' || value === 'developer' || value === 'pro') return value;
  throw new InvalidArgumentError('use free, developer or pro');
}
