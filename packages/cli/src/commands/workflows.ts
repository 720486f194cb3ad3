import { Command, InvalidArgumentError, Option } from 'commander';
import type { WvrClient } from '@wvr/sdk';
import { contextOf, withClient } from '../context.js';
import { balanceNote, balanceText, emit, table, type Output } from '../output/print.js';
import { CliError } from '../output/errors.js';
import { snakeKeys } from '../output/snake.js';
import { commaList, nonNegativeInt, positiveInt } from './parse.js';
import { loadStructured } from './structured-input.js';
import { exitIfStuck } from '../shutdown.js';
import { terminalData } from '../output/terminal-text.js';
import { changeLine, latestRun, scheduleOf, unseenRuns, watchSnapshot, type WorkflowDetail } from '../views/workflow-watch.js';

type Api = WvrClient['workflows'];
type CreateBody = Parameters<Api['create']>[0];
type ListQuery = NonNullable<Parameters<Api['list']>[0]>;
type Execution = NonNullable<Awaited<ReturnType<Api['execute']>>['execution']>;
type StopCondition = NonNullable<CreateBody['stop_condition']>;

const STATUSES = ['active', 'paused', 'completed', 'failed', 'stopped', 'planning', 'plan_failed', 'archived'] as const;

interface CreateOptions {
  file?: string;
  name?: string;
  description?: string;
  mode?: CreateBody['mode'];
  type?: 'search' | 'crawl';
  query?: string;
  url?: string[];
  maxResults?: number;
  maxPages?: number;
  intent?: string;
  maxCredits?: number;
  interval?: string;
  intervalMinutes?: number;
  cron?: string;
  timezone?: string;
  at?: string;
  anchorMinute?: number;
  maxExecutions?: number;
  stop?: StopCondition;
  webhook?: string;
  email?: boolean;
  session?: string;
  tag?: string[];
  dryRun?: boolean;
}

export function workflowsCommand(): Command {
  const workflows = new Command('workflows').description('scheduled monitoring: create, run, pause, watch what changed');

  workflows
    .command('create')
    .description('create a workflow from flags, a YAML/JSON file (--file), or both (flags win)')
    .option('-f, --file <path>', 'YAML or JSON file with the POST /v1/workflows body')
    .option('--name <name>', 'name (required, here or in the file)')
    .option('--description <text>', 'what it is for; also the monitoring intent when --intent is absent')
    .addOption(new Option('--mode <mode>', 'simple (default), multi_step (steps in the file) or ai_planned').choices(['simple', 'multi_step', 'ai_planned']))
    .addOption(new Option('--type <type>', 'simple mode: search or crawl').choices(['search', 'crawl']))
    .option('--query <text>', 'search workflows: the query')
    .option('--url <url>', 'crawl workflows: a seed URL (repeat or comma-separate)', commaList)
    .option('--max-results <n>', 'search workflows: results per run', positiveInt)
    .option('--max-pages <n>', 'crawl workflows: pages per run', positiveInt)
    .option('--intent <text>', 'what to monitor (filters irrelevant changes; ai_planned plans from it)')
    .option('--max-credits <n>', 'ai_planned: credits per execution at most', positiveInt)
    .option('--interval <text>', 'schedule: "N minutes|hours|days|weeks"')
    .option('--interval-minutes <n>', 'schedule: every N minutes (wins over --interval)', positiveInt)
    .option('--cron <expr>', 'schedule: 5-field cron expression')
    .option('--timezone <tz>', 'IANA time zone of --cron (default UTC)')
    .option('--at <iso>', 'schedule: one run at this ISO 8601 time')
    .option('--anchor-minute <m>', 'run at this minute of the hour (0-59)', minute)
    .option('--max-executions <n>', 'stop after this many runs', positiveInt)
    .option('--stop <json|file>', 'stop condition, e.g. {"type":"result_count","operator":">=","value":5}', stopCondition)
    .option('--webhook <url>', 'signed webhook for run, change and completion events')
    .option('--email', 'also notify by email (needs WVR_SMTP_URL on the engine)')
    .option('--session <id>', 'session whose seen URLs make changes unique across runs')
    .option('--tag <tags>', 'tags, comma-separated or repeated', commaList)
    .option('--dry-run', 'estimate the cost per run without creating')
    .action(async (opts: CreateOptions, command: Command) => {
      const ctx = contextOf(command);
      const body = createBody(opts);
      const created = await withClient(ctx, (client) => client.workflows.create(body));
      emit(ctx.output, created, (c) => {
        const e = c.estimate;
        const cost = `${e.credits_per_execution} credit(s) per run, ${balanceNote(e.credits_balance, e.would_succeed)}`;
        if (c.dry_run || !c.workflow) return `Would cost ${cost}; first run ${e.first_run_at ?? 'not scheduled'}.`;
        const w = c.workflow;
        return [`Workflow "${w.name}" (${w.id}) is ${w.status}: ${scheduleOf(w)}, next run ${w.next_run_at ?? '-'}.`, `About ${cost}.`].join('\n');
      });
    });

  workflows
    .command('list')
    .description('your workflows (and shared ones with --scope)')
    .addOption(new Option('--status <status>', 'only this status').choices(STATUSES))
    .addOption(new Option('--scope <scope>', 'all, owned or shared').choices(['all', 'owned', 'shared']))
    .option('--search <text>', 'name or description contains')
    .option('--tag <tags>', 'must carry every tag (comma-separated or repeated)', commaList)
    .addOption(new Option('--sort-by <field>').choices(['created', 'updated', 'name']))
    .addOption(new Option('--sort-order <order>').choices(['asc', 'desc']))
    .option('--limit <n>', 'page size (1-100)', positiveInt)
    .option('--offset <n>', 'items to skip', nonNegativeInt)
    .action(async (opts: Omit<ListQuery, 'tags'> & { tag?: string[]; sortBy?: ListQuery['sort_by']; sortOrder?: ListQuery['sort_order'] }, command: Command) => {
      const ctx = contextOf(command);
      const query: ListQuery = {
        status: opts.status,
        scope: opts.scope,
        search: opts.search,
        tags: opts.tag?.join(','),
        sort_by: opts.sortBy,
        sort_order: opts.sortOrder,
        limit: opts.limit,
        offset: opts.offset,
      };
      const page = await withClient(ctx, (client) => client.workflows.list(query));
      emit(ctx.output, page, (p) =>
        [
          table(
            p.data.map((w) => ({ ...w, kind: w.workflow_type ?? w.mode, schedule: scheduleOf(w), runs: w.execution_count })),
            ['id', 'name', 'status', 'kind', 'schedule', 'next_run_at', 'runs'],
          ),
          `${p.data.length} of ${p.total}`,
        ].join('\n'),
      );
    });

  workflows
    .command('show <id>')
    .description('a workflow with its recent executions')
    .action(async (id: string, _opts, command: Command) => {
      const ctx = contextOf(command);
      const detail = await withClient(ctx, (client) => client.workflows.get(id));
      emit(ctx.output, detail, renderWorkflow);
    });

  workflows
    .command('run <id>')
    .description('run a workflow now and print what changed since its previous run')
    .option('--dry-run', 'only estimate the cost of a run')
    .action(async (id: string, opts: { dryRun?: boolean }, command: Command) => {
      const ctx = contextOf(command);
      const out = await withClient(ctx, (client) => client.workflows.execute(id, opts.dryRun ? { dry_run: true } : {}));
      emit(ctx.output, out, (r) => {
        if (!r.execution) {
          const e = r.estimate;
          return e ? `A run would cost ${e.credits} credit(s); ${balanceNote(e.credits_balance, e.would_succeed)}.` : `Workflow ${r.workflow_id} is ${r.status}.`;
        }
        return [renderExecution(r.execution), `Workflow is ${r.status}.`].join('\n');
      });
    });

  for (const [name, verb] of [
    ['pause', 'paused'],
    ['resume', 'active'],
  ] as const) {
    workflows
      .command(`${name} <id>`)
      .description(name === 'pause' ? 'stop scheduled runs until resumed' : 'schedule runs again')
      .action(async (id: string, _opts, command: Command) => {
        const ctx = contextOf(command);
        const w = await withClient(ctx, (client) => client.workflows[name](id));
        emit(ctx.output, w, (v) => `Workflow "${v.name}" (${v.id}) is ${v.status}${v.status === verb && v.next_run_at ? `, next run ${v.next_run_at}` : ''}.`);
      });
  }

  workflows
    .command('delete <id>')
    .description('delete a workflow and its executions; its scheduled runs stop')
    .action(async (id: string, _opts, command: Command) => {
      const ctx = contextOf(command);
      const deleted = await withClient(ctx, (client) => client.workflows.delete(id));
      emit(ctx.output, deleted, (d) => `Deleted workflow ${d.id}.`);
    });

  workflows
    .command('executions <id>')
    .description('the run history, newest first, with changes')
    .option('--limit <n>', 'page size (1-100)', positiveInt)
    .option('--offset <n>', 'items to skip', nonNegativeInt)
    .option('--changes', 'also list the new, dropped and changed URLs of each run')
    .action(async (id: string, opts: { limit?: number; offset?: number; changes?: boolean }, command: Command) => {
      const ctx = contextOf(command);
      const page = await withClient(ctx, (client) => client.workflows.executions(id, { limit: opts.limit, offset: opts.offset }));
      emit(ctx.output, page, (p) =>
        [
          executionTable(p.data),
          ...(opts.changes ? p.data.flatMap((e) => ['', `#${e.seq}:`, ...changeDetails(e)]) : []),
          `${p.data.length} of ${p.total}`,
        ].join('\n'),
      );
    });

  workflows
    .command('watch [ids...]')
    .description('live view of upcoming runs and the latest changes (all your workflows, or the ones named); locally this process also runs due workflows')
    .option('--every <seconds>', 'poll interval in seconds (default 2)', positiveInt)
    .option('--once', 'print one snapshot and exit')
    .action(async (ids: string[], opts: { every?: number; once?: boolean }, command: Command) => {
      const ctx = contextOf(command);
      if (ctx.output.json && !opts.once) throw new CliError('watch runs until Ctrl-C; with --json add --once for one snapshot.', 'json_needs_once', 2);
      await withClient(ctx, (client) => watch(client, ids, { everyMs: (opts.every ?? 2) * 1000, once: Boolean(opts.once) }, ctx.output), {
        background: !opts.once,
      });
    });

  return workflows;
}

function createBody(opts: CreateOptions): CreateBody {
  const fromFile = opts.file ? loadStructured(opts.file, '--file') : {};
  if (typeof fromFile !== 'object' || fromFile === null || Array.isArray(fromFile)) {
    throw new CliError(`${opts.file} must hold one object: the POST /v1/workflows body.`, 'workflow_file_invalid', 2);
  }
  // The API validates the whole body and answers 400 with the field at fault.
  const file = fromFile as Partial<CreateBody>;
  const operation = {
    ...(file.operation_config ?? {}),
    ...(opts.query ? { query: opts.query } : {}),
    ...(opts.url?.length ? { urls: opts.url } : {}),
    ...(opts.maxResults ? { max_results: opts.maxResults } : {}),
    ...(opts.maxPages ? { max_pages: opts.maxPages } : {}),
  };
  const type = opts.type ?? file.workflow_type ?? (opts.query ? 'search' : opts.url?.length ? 'crawl' : undefined);
  const name = opts.name ?? file.name;
  if (!name) throw new CliError('A workflow needs a name: --name or "name" in --file.', 'workflow_name_missing', 2);
  const flags: Partial<CreateBody> = {
    ...(opts.description ? { description: opts.description } : {}),
    ...(opts.mode ? { mode: opts.mode } : {}),
    ...(type ? { workflow_type: type } : {}),
    ...(Object.keys(operation).length ? { operation_config: operation } : {}),
    ...(opts.intent ? { intent: opts.intent } : {}),
    ...(opts.maxCredits ? { max_credits_per_execution: opts.maxCredits } : {}),
    ...(opts.interval ? { interval: opts.interval } : {}),
    ...(opts.intervalMinutes ? { interval_minutes: opts.intervalMinutes } : {}),
    ...(opts.cron ? { cron_expression: opts.cron } : {}),
    ...(opts.timezone ? { timezone: opts.timezone } : {}),
    ...(opts.at ? { scheduled_for: opts.at } : {}),
    ...(opts.anchorMinute !== undefined ? { anchor_minute: opts.anchorMinute } : {}),
    ...(opts.maxExecutions ? { max_executions: opts.maxExecutions } : {}),
    ...(opts.stop ? { stop_condition: opts.stop } : {}),
    ...(opts.webhook || opts.email
      ? {
          notification_config: {
            ...file.notification_config,
            ...(opts.webhook ? { webhook_url: opts.webhook } : {}),
            email: Boolean(opts.email || file.notification_config?.email),
          },
        }
      : {}),
    ...(opts.session ? { session_id: opts.session } : {}),
    ...(opts.tag?.length ? { tags: opts.tag } : {}),
    ...(opts.dryRun ? { dry_run: true } : {}),
  };
  return { ...file, ...flags, name };
}

function minute(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 59) throw new InvalidArgumentError('expected a minute from 0 to 59');
  return n;
}

function stopCondition(value: string): StopCondition {
  const parsed = loadStructured(value, '--stop');
  if (typeof parsed !== 'object' || parsed === null || !('type' in parsed) || typeof parsed.type !== 'string') {
    throw new InvalidArgumentError('--stop must be an object with a "type", e.g. {"type":"contains_url","url":"https://example.com/x"}');
  }
  // The API checks the rest of the condition's shape.
  return parsed as StopCondition;
}

function renderWorkflow(w: WorkflowDetail): string {
  const what =
    w.mode === 'simple'
      ? `${w.workflow_type ?? '?'} ${JSON.stringify(w.operation_config ?? {})}`
      : w.mode === 'multi_step'
        ? `${w.steps?.length ?? 0} step(s): ${(w.steps ?? []).map((s) => `${s.id}(${s.type})`).join(' → ')}`
        : `ai_planned: ${w.intent ?? ''}`;
  const lines = [
    `${w.name} (${w.id})`,
    `status ${w.status}${w.status_reason ? ` (${w.status_reason})` : ''} · ${scheduleOf(w)} · next run ${w.next_run_at ?? '-'} · last run ${w.last_run_at ?? '-'}`,
    `${what}`,
    `stop when ${JSON.stringify(w.stop_condition)} · ${w.execution_count}${w.max_executions ? `/${w.max_executions}` : ''} run(s) · ~${w.estimated_credits_per_execution} credit(s) per run`,
    ...(w.description ? [w.description] : []),
    ...(w.tags.length ? [`tags: ${w.tags.join(', ')}`] : []),
    '',
    'Recent executions:',
    executionTable(w.recent_executions),
  ];
  const latest = latestRun(w);
  if (latest) lines.push('', changeLine(latest));
  return lines.join('\n');
}

function executionTable(executions: WorkflowDetail['recent_executions']): string {
  return table(executions.map(executionRow), ['seq', 'trigger', 'status', 'finished_at', 'results', 'new', 'dropped', 'retained', 'change_%', 'credits', 'stop']);
}

function executionRow(e: WorkflowDetail['recent_executions'][number]) {
  const c = e.result_changes;
  return {
    seq: e.seq,
    trigger: e.trigger,
    status: e.status,
    finished_at: e.finished_at,
    results: e.result_count,
    new: c?.net_new_count,
    dropped: c?.dropped_count,
    retained: c?.retained_count,
    'change_%': c ? c.change_rate.toFixed(1) : undefined,
    credits: e.credits.consumed,
    stop: e.condition_met ? 'met' : undefined,
  };
}

function changeDetails(e: Execution): string[] {
  const c = e.result_changes;
  const lines: string[] = [];
  if (e.error) lines.push(`  failed: ${e.error.code}: ${e.error.message}`);
  if (e.stop_evaluation) lines.push(`  stop condition ${e.stop_evaluation.condition_met ? 'met' : 'not met'}: ${e.stop_evaluation.reason}`);
  if (!c) return lines;
  for (const u of c.net_new_urls) lines.push(`  + ${u.title || u.url}  ${u.url}`);
  for (const u of c.dropped_urls) lines.push(`  - ${u}`);
  for (const d of c.page_diffs ?? []) lines.push(`  ~ ${d.url}`, ...d.diff.split('\n').slice(0, 12).map((l) => `      ${l}`));
  for (const u of (c.changed_urls ?? []).filter((u) => !(c.page_diffs ?? []).some((d) => d.url === u))) lines.push(`  ~ ${u}`);
  const f = e.intent_relevance_filter;
  if (f && f.filtered_count > 0) lines.push(`  ${f.filtered_count} irrelevant to "${f.monitoring_intent_used}" filtered out`);
  return lines;
}

function renderExecution(e: Execution): string {
  const c = e.result_changes;
  const head = `Run #${e.seq} ${e.status}: ${e.result_count} result(s), ${e.credits.consumed} credit(s), ${balanceText(e.credits.balance_after)}`;
  const changes = c
    ? `+${c.net_new_count} new, -${c.dropped_count} dropped, ${c.retained_count} retained${c.changed_urls?.length ? `, ${c.changed_urls.length} changed` : ''} (change ${c.change_rate.toFixed(1)}%)`
    : 'no change tracking';
  return [head, changes, ...changeDetails(e)].join('\n');
}

/**
 * Polls the named workflows (or all of yours) and shows upcoming runs and the latest changes:
 * ink on a terminal; otherwise one line per new run, so a log reads as a history.
 */
async function watch(client: WvrClient, ids: string[], opts: { everyMs: number; once: boolean }, output: Output): Promise<void> {
  const load = async (): Promise<WorkflowDetail[]> => {
    const targets = ids.length ? ids : (await client.workflows.list({ limit: 100, sort_by: 'updated' })).data.map((w) => w.id);
    return Promise.all(targets.map((id) => client.workflows.get(id)));
  };
  if (opts.once) {
    const snapshot = watchSnapshot(await load());
    if (output.json) return output.out(JSON.stringify(snakeKeys(snapshot), null, 2));
    emit(output, snapshot, (s) =>
      [
        'Upcoming runs:',
        table(s.upcoming.map((u) => ({ ...u, next_run_at: u.nextRunAt })), ['next_run_at', 'name', 'status', 'schedule', 'executions']),
        '',
        'Latest changes:',
        ...(s.latest.length ? s.latest.map(changeLine) : ['(no runs yet)']),
      ].join('\n'),
    );
    return;
  }
  const tty = Boolean(process.stdout.isTTY);
  const ui = tty ? await loadWatchUi() : undefined;
  const seen = new Set<string>();
  let app: ReturnType<WatchUi['render']> | undefined;
  let stopped = false;
  const stop = () => {
    stopped = true;
    exitIfStuck();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    while (!stopped) {
      const details = await load();
      if (ui) {
        const view = ui.createElement(ui.WorkflowWatchView, { snapshot: terminalData(watchSnapshot(details)), nowMs: Date.now() });
        if (app) app.rerender(view);
        else app = ui.render(view, { exitOnCtrlC: false, patchConsole: false });
      } else {
        for (const run of unseenRuns(details, seen)) output.out(changeLine(run));
      }
      await sleepUnless(opts.everyMs, () => stopped);
    }
  } finally {
    process.removeListener('SIGINT', stop);
    process.removeListener('SIGTERM', stop);
    app?.unmount();
  }
}

/** Sleeps in short steps so Ctrl-C ends the watch promptly. */
async function sleepUnless(ms: number, done: () => boolean): Promise<void> {
  const until = Date.now() + ms;
  while (!done() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, Math.min(100, until - Date.now())));
}

/** ink and react load only for a live view on a terminal: the view's module brings them (its createElement, render). */
const loadWatchUi = () => import('../views/WorkflowWatchView.js');
type WatchUi = Awaited<ReturnType<typeof loadWatchUi>>;
