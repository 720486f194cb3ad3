import { Command } from 'commander';
import { contextOf, withClient, withLocalEngine } from '../context.js';
import { emit, table } from '../output/print.js';
import { CliError } from '../output/errors.js';
import { positiveInt } from './parse.js';

export function creditsCommand(): Command {
  const credits = new Command('credits')
    .description('show the balance, plan, monthly grant and recent ledger entries')
    .action(async (_opts, command: Command) => {
      const ctx = contextOf(command);
      const summary = await withClient(ctx, (client) => client.credits.get());
      emit(ctx.output, summary, (s) =>
        [
          `Balance: ${s.balance} credits (${s.reserved} reserved by running work)`,
          `Plan: ${s.plan}, ${s.monthly_grant} credits a month (period ${s.period_start.slice(0, 10)} to ${s.period_end.slice(0, 10)})`,
          '',
          table(s.recent, ['created_at', 'kind', 'amount', 'operation', 'note']),
        ].join('\n'),
      );
    });

  credits
    .command('grant')
    .description('add credits to the account named by --user (local engine only)')
    .requiredOption('--amount <n>', 'credits to add', positiveInt)
    .action(async (opts: { amount: number }, command: Command) => {
      const ctx = contextOf(command);
      if (!ctx.userGiven) throw new CliError('Name the account to credit with --user EMAIL.', 'user_required', 2);
      const entry = await withLocalEngine(ctx, async (engine, principal) =>
        engine.credits.grant(principal.userId, opts.amount, 'granted with wvr credits grant'),
      );
      emit(ctx.output, entry, (e) => `Granted ${e.amount} credits to ${ctx.options.user}.`);
    });

  return credits;
}
