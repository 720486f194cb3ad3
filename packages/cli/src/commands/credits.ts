import { Command } from 'commander';
import { contextOf, withClient, withLocalEngine } from '../context.js';
import { emit, table } from '../output/print.js';
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
          s.plan === 'local'
            ? 'Plan: local (this data folder\'s own account): not limited by its balance; every use is recorded in the ledger below'
            : `Plan: ${s.plan}, ${s.monthly_grant} credits a month (period ${s.period_start.slice(0, 10)} to ${s.period_end.slice(0, 10)})`,
          '',
          table(s.recent, ['created_at', 'kind', 'amount', 'operation', 'note']),
        ].join('\n'),
      );
    });

  credits
    .command('grant')
    .description('add credits to an account: the one named by --user, else the local one (local engine only)')
    .requiredOption('--amount <n>', 'credits to add', positiveInt)
    .action(async (opts: { amount: number }, command: Command) => {
      const ctx = contextOf(command);
      const entry = await withLocalEngine(ctx, async (engine, principal) =>
        engine.credits.grant(principal.userId, opts.amount, 'granted with wvr credits grant'),
      );
      emit(ctx.output, entry, (e) => `Granted ${e.amount} credits to ${ctx.options.user}.`);
    });

  return credits;
}
