import type { components } from '@wvr/sdk';

type Schemas = components['schemas'];
export type Workflow = Schemas['Workflow'];
export type WorkflowDetail = Schemas['WorkflowDetail'];
export type RecentExecution = WorkflowDetail['recent_executions'][number];

/** One workflow's latest run, as the watch view and its plain lines tell it. */
export interface LatestRun {
  workflowId: string;
  workflowName: string;
  executionId: string;
  seq: number;
  status: RecentExecution['status'];
  finishedAt: string;
  results: number;
  netNew: number;
  dropped: number;
  retained: number;
  changeRate: number;
  newPages: { url: string; title: string }[];
  changedUrls: string[];
  conditionMet: boolean;
  error: string | null;
}

export interface UpcomingRun {
  id: string;
  name: string;
  status: Workflow['status'];
  schedule: string;
  nextRunAt: string | null;
  executions: number;
}

export interface WatchSnapshot {
  upcoming: UpcomingRun[];
  latest: LatestRun[];
}

export function scheduleOf(w: Workflow): string {
  if (w.interval_minutes) return `every ${w.interval_minutes} min`;
  if (w.interval) return `every ${w.interval}`;
  if (w.cron_expression) return `cron ${w.cron_expression} ${w.timezone}`;
  if (w.scheduled_for) return `once at ${w.scheduled_for}`;
  return 'manual';
}

export function latestRun(w: WorkflowDetail): LatestRun | null {
  const e = w.recent_executions[0];
  return e ? runOf(w, e) : null;
}

/**
 * The runs of these workflows that are not in `seen` yet, oldest first, each added to it: what a plain watch prints
 * at a look. Every unseen one of a workflow's recent runs (its last five), not only its latest: a run started by hand
 * and one the schedule started can both finish between two looks. At the first look (`seen` empty) a workflow's
 * latest run stands for its history.
 */
export function unseenRuns(details: WorkflowDetail[], seen: Set<string>): LatestRun[] {
  const first = seen.size === 0;
  const runs: LatestRun[] = [];
  for (const w of details) {
    w.recent_executions.forEach((e, i) => {
      if (!seen.has(e.id) && (!first || i === 0)) runs.push(runOf(w, e));
      seen.add(e.id);
    });
  }
  return runs.sort((a, b) => a.finishedAt.localeCompare(b.finishedAt) || a.seq - b.seq);
}

function runOf(w: WorkflowDetail, e: RecentExecution): LatestRun {
  const c = e.result_changes;
  return {
    workflowId: w.id,
    workflowName: w.name,
    executionId: e.id,
    seq: e.seq,
    status: e.status,
    finishedAt: e.finished_at,
    results: e.result_count,
    netNew: c?.net_new_count ?? 0,
    dropped: c?.dropped_count ?? 0,
    retained: c?.retained_count ?? 0,
    changeRate: c?.change_rate ?? 0,
    newPages: (c?.net_new_urls ?? []).map((u) => ({ url: u.url, title: u.title })),
    changedUrls: c?.changed_urls ?? [],
    conditionMet: e.condition_met,
    error: e.error ? `${e.error.code}: ${e.error.message}` : null,
  };
}

/** Upcoming runs soonest first (unscheduled last); latest runs newest first. */
export function watchSnapshot(details: WorkflowDetail[]): WatchSnapshot {
  const upcoming = details
    .map((w) => ({ id: w.id, name: w.name, status: w.status, schedule: scheduleOf(w), nextRunAt: w.next_run_at, executions: w.execution_count }))
    .sort((a, b) => (a.nextRunAt ?? '\uffff').localeCompare(b.nextRunAt ?? '\uffff') || a.name.localeCompare(b.name));
  const latest = details
    .map(latestRun)
    .filter((r): r is LatestRun => r !== null)
    .sort((a, b) => b.finishedAt.localeCompare(a.finishedAt));
  return { upcoming, latest };
}

export function changeLine(r: LatestRun): string {
  const head = `${r.workflowName} run #${r.seq} ${r.status} at ${r.finishedAt}`;
  if (r.error) return `${head}: ${r.error}`;
  const changed = r.changedUrls.length ? `, ${r.changedUrls.length} changed` : '';
  const stop = r.conditionMet ? ' · stop condition met' : '';
  return `${head}: ${r.results} result(s), +${r.netNew} new, -${r.dropped} dropped, ${r.retained} retained${changed} (change ${r.changeRate.toFixed(1)}%)${stop}`;
}

/** The view's shorter form of changeLine: the time relative to now, the counts as signs. */
export function compactChangeLine(r: LatestRun, nowMs: number): string {
  const head = `#${r.seq} ${r.workflowName} · ${relative(r.finishedAt, nowMs)}`;
  if (r.error) return `${head} · failed: ${r.error}`;
  const changed = r.changedUrls.length ? ` ~${r.changedUrls.length} changed` : '';
  const stop = r.conditionMet ? ' · stop condition met' : '';
  return `${head} · ${r.results} result(s) +${r.netNew} new -${r.dropped} dropped =${r.retained} retained${changed} (${r.changeRate.toFixed(1)}%)${stop}`;
}

/** "in 4m", "3h ago": how far a time is from now, for a person glancing at the view. */
export function relative(iso: string | null, nowMs: number): string {
  if (!iso) return '-';
  const delta = Date.parse(iso) - nowMs;
  const abs = Math.abs(delta);
  const text = abs < 60_000 ? `${Math.round(abs / 1000)}s` : abs < 3_600_000 ? `${Math.round(abs / 60_000)}m` : abs < 86_400_000 ? `${Math.round(abs / 3_600_000)}h` : `${Math.round(abs / 86_400_000)}d`;
  return delta >= 0 ? `in ${text}` : `${text} ago`;
}
