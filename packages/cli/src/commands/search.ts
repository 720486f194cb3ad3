import { creditsText, pricing } from '@wvr/engine/vocabulary';
import { Command, Option } from 'commander';
import type { QuickSearchResponse, SearchDryRun, SearchJob } from '@wvr/engine';
import { contextOf, withClient } from '../context.js';
import { balanceNote, balanceText, ellipsize, emit, table } from '../output/print.js';
import { CliError } from '../output/errors.js';
import { positiveInt } from './parse.js';

interface SearchOptions {
  quick?: boolean;
  max?: number;
  rerank?: boolean;
  suggest?: boolean;
  summary: boolean;
  sourceType?: 'academic' | 'commercial' | 'news' | 'community' | 'mixed';
  includeDomains?: string[];
  excludeDomains?: string[];
  dryRun?: boolean;
  session?: string;
}

/** What a full search costs with reranking or suggestions. */
const advanced = pricing.fullSearch({ rerank_results: true }).credits;

export function searchCommand(): Command {
  return new Command('search')
    .description(
      `search the pages you may see (local index) or the configured web provider: quick ${creditsText(pricing.quickSearch().credits)}, full ${pricing.fullSearch({}).credits} or ${advanced}`,
    )
    .argument('<query...>', 'what to search for')
    .option('--quick', `quick search (${creditsText(pricing.quickSearch().credits)}; honours --include-domains / --exclude-domains)`)
    .option('--max <n>', 'results, 1 to 20 (default 10)', positiveInt)
    .option('--rerank', `novelty reranking (${creditsText(advanced)})`)
    .option('--suggest', `follow-up query suggestions (${creditsText(advanced)})`)
    .option('--no-summary', 'skip the free extractive summary')
    .addOption(new Option('--source-type <type>', 'only results of this type').choices(['academic', 'commercial', 'news', 'community', 'mixed']))
    .option('--include-domains <domains...>', 'only these domains')
    .option('--exclude-domains <domains...>', 'never these domains')
    .option('--session <id>', 'run it in this research session (full search): on its timeline, with its context')
    .option('--dry-run', 'show the price without searching (full search)')
    .action(async (words: string[], opts: SearchOptions, command: Command) => {
      const ctx = contextOf(command);
      const query = words.join(' ');
      const max = opts.max === undefined ? {} : { max_results: opts.max };
      const domains = {
        ...(opts.includeDomains ? { include_domains: opts.includeDomains } : {}),
        ...(opts.excludeDomains ? { exclude_domains: opts.excludeDomains } : {}),
      };
      if (opts.quick) {
        if (opts.session) throw new CliError('--session applies to full search; drop --quick.', 'session_needs_full_search', 2);
        const body = { query, ...max, ...domains };
        const out = await withClient(ctx, (client) => client.search.quick(body));
        emit(ctx.output, out, renderQuick);
        return;
      }
      const body = {
        query,
        ...max,
        processing_mode: 'sync' as const,
        rerank_results: Boolean(opts.rerank),
        generate_suggestions: Boolean(opts.suggest),
        generate_summary: opts.summary,
        dry_run: Boolean(opts.dryRun),
        ...domains,
        ...(opts.sourceType ? { source_type: opts.sourceType } : {}),
        ...(opts.session ? { session_id: opts.session } : {}),
      };
      const out = (await withClient(ctx, (client) => client.search.search(body))) as SearchJob | SearchDryRun;
      emit(ctx.output, out, (v) => ('dry_run' in v ? renderDryRun(v) : renderJob(v)));
    });
}

const rows = (results: { title: string; url: string; relevance_score: number; source_type?: string }[]) =>
  results.map((r, i) => ({ '#': i + 1, score: r.relevance_score.toFixed(3), type: r.source_type, title: ellipsize(r.title, 60), url: r.url }));

function renderQuick(r: QuickSearchResponse): string {
  return [table(rows(r.results), ['#', 'score', 'title', 'url']), '', `${r.total} results from ${r.provider} · ${credits(r.credits)}`].join('\n');
}

function renderJob(job: SearchJob): string {
  const lines = [table(rows(job.results), ['#', 'score', 'type', 'title', 'url'])];
  if (job.summary) lines.push('', 'Summary:', `  ${job.summary.text}`);
  if (job.suggested_queries.length > 0) lines.push('', 'Try next:', ...job.suggested_queries.map((q) => `  - ${q}`));
  if (job.error) lines.push('', `Failed: ${job.error}`);
  lines.push('', `Job ${job.id} (${job.status}) · ${job.total_results} results from ${job.provider} · ${credits(job.credits)}`);
  return lines.join('\n');
}

function renderDryRun(d: SearchDryRun): string {
  const features = d.credits.advanced_features.length > 0 ? ` (${d.credits.advanced_features.join(', ')})` : '';
  return `Would cost ${d.credits.would_consume} credit(s), ${d.credits.pricing_tier}${features}; ${balanceNote(d.credits_balance, d.would_succeed)}.`;
}

const credits = (c: { consumed: number; balance_after: number }) => `${c.consumed} credit(s), ${balanceText(c.balance_after)}`;
