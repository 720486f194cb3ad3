import { Command } from 'commander';
import { contextOf, withClient } from '../context.js';
import { emit, table } from '../output/print.js';
import { positiveInt } from './parse.js';

/** What changed across workflows, one workflow's story, and where to look next (the MCP monitors_* views). */
export function monitorsCommand(): Command {
  const monitors = new Command('monitors').description('read what your workflows found: digest, chronicle, recommendations');

  monitors
    .command('digest')
    .description('changes across your workflows in a window (default: the last 24 hours)')
    .option('--since <iso>', 'start of the window (ISO 8601)')
    .option('--until <iso>', 'end of the window (ISO 8601)')
    .action(async (opts: { since?: string; until?: string }, command: Command) => {
      const ctx = contextOf(command);
      const digest = await withClient(ctx, (client) => client.monitors.digest(opts));
      emit(ctx.output, digest, (d) =>
        [
          `${d.monitors_with_changes} of ${d.monitors_total} workflows changed between ${d.since} and ${d.until}: ${d.totals.new} new, ${d.totals.dropped} gone, ${d.totals.changed} changed.`,
          '',
          table(d.monitors, ['name', 'runs', 'new_count', 'dropped_count', 'changed_count', 'condition_met', 'summary']),
        ].join('\n'),
      );
    });

  monitors
    .command('chronicle <id>')
    .description('the time-ordered story of one workflow')
    .option('--limit <n>', 'most recent runs to tell (1-100)', positiveInt)
    .action(async (id: string, opts: { limit?: number }, command: Command) => {
      const ctx = contextOf(command);
      const story = await withClient(ctx, (client) => client.monitors.chronicle(id, opts));
      emit(ctx.output, story, (s) =>
        [
          `${s.name} (${s.status}): ${s.reports_total} runs; shown ${s.totals.runs}: ${s.totals.new} new, ${s.totals.dropped} gone, ${s.totals.changed} changed.`,
          ...s.entries.flatMap((e) => [`${e.at}  ${e.summary}`, ...e.new.slice(0, 5).map((n) => `    + ${n.title} ${n.url}`)]),
        ].join('\n'),
      );
    });

  monitors
    .command('recommend <id>')
    .description('queries, URLs and domains worth monitoring next, from what a workflow found')
    .action(async (id: string, _opts, command: Command) => {
      const ctx = contextOf(command);
      const advice = await withClient(ctx, (client) => client.monitors.recommendations(id));
      emit(ctx.output, advice, (a) =>
        [
          'Queries:',
          table(a.queries, ['query', 'reason']),
          '',
          'Domains:',
          table(a.domains, ['domain', 'results', 'new', 'reason']),
          '',
          'Pages:',
          table(a.urls, ['url', 'title']),
          ...(a.gaps.length > 0 ? ['', 'Gaps:', ...a.gaps.map((g) => `  - ${g}`)] : []),
        ].join('\n'),
      );
    });

  return monitors;
}
