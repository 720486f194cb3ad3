import { pricing } from '@wvr/engine/vocabulary';
import { Command, Option } from 'commander';
import type { AskResponse } from '@wvr/engine';
import { contextOf, withClient } from '../context.js';
import { balanceText, emit } from '../output/print.js';
import { positiveInt } from './parse.js';

interface AskOptions {
  depth: 'quick' | 'standard' | 'deep';
  maxSources?: number;
  session?: string;
}

export function askCommand(): Command {
  return new Command('ask')
    .description(
      `answer a question from researched, cited sources (quick ${pricing.ask('quick').credits}, standard ${pricing.ask('standard').credits}, deep ${pricing.ask('deep').credits} to ${pricing.ask('deep').max_credits} credits)`,
    )
    .argument('<question...>', 'the question')
    .addOption(new Option('--depth <depth>', 'how far to research').choices(['quick', 'standard', 'deep']).default('standard'))
    .option('--max-sources <n>', 'most sources to list, 1 to 20 (default 10)', positiveInt)
    .option('--session <id>', 'link the answer to a session')
    .action(async (words: string[], opts: AskOptions, command: Command) => {
      const ctx = contextOf(command);
      const body = {
        question: words.join(' '),
        depth: opts.depth,
        ...(opts.maxSources === undefined ? {} : { max_sources: opts.maxSources }),
        ...(opts.session === undefined ? {} : { session_id: opts.session }),
      };
      const answer = await withClient(ctx, (client) => client.asks.create(body));
      emit(ctx.output, answer, render);
    });
}

function render(a: AskResponse): string {
  const lines = [a.answer, ''];
  if (a.sources.length > 0) {
    lines.push('Sources:');
    for (const s of a.sources) lines.push(`  [${s.index}]${s.cited ? '' : ' (not cited)'} ${s.title} — ${s.url}`);
    lines.push('');
  }
  if (a.follow_up_questions.length > 0) {
    lines.push('Follow-up questions:', ...a.follow_up_questions.map((q) => `  - ${q}`), '');
  }
  const fallback = a.model.fallback_reason ? `, model fallback: ${a.model.fallback_reason}` : '';
  lines.push(
    `Confidence ${a.confidence.toFixed(2)} · ${a.answer_mode} (${a.model.provider}${fallback}) · ${a.stats.pages_read} pages read · ` +
      `${a.credits.consumed} credits (max ${a.credits.max_credits}), ${balanceText(a.credits.balance_after)}`,
  );
  return lines.join('\n');
}
