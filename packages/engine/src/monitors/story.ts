import type { WorkflowExecution } from '../workflows/responses.js';

export interface RunChanges {
  new: { url: string; title: string; published_date: string | null }[];
  dropped: string[];
  changed: string[];
}

export function changesOf(run: WorkflowExecution): RunChanges {
  const c = run.result_changes;
  return {
    new: (c?.net_new_urls ?? []).map((u) => ({ url: u.url, title: u.title, published_date: u.published_date })),
    dropped: c?.dropped_urls ?? [],
    changed: c?.changed_urls ?? [],
  };
}

/** One sentence a person (or an agent) can read in a list of runs. */
export function describeRun(run: WorkflowExecution): string {
  if (run.status === 'failed') return `Run ${run.seq} failed${run.error ? `: ${run.error.message}` : ''}.`;
  const { new: added, dropped, changed } = changesOf(run);
  if (run.result_changes?.previous_execution_id === null) {
    return `First run: ${run.result_count} result${run.result_count === 1 ? '' : 's'} became the baseline.${stopNote(run)}`;
  }
  const parts: string[] = [];
  if (added.length) parts.push(`${added.length} new (${quoteTitles(added.map((a) => a.title))})`);
  if (dropped.length) parts.push(`${dropped.length} no longer found`);
  if (changed.length) parts.push(`${changed.length} page${changed.length === 1 ? '' : 's'} changed`);
  const body = parts.length > 0 ? parts.join('; ') : 'nothing changed';
  return `Run ${run.seq}: ${body}.${stopNote(run)}`;
}

const stopNote = (run: WorkflowExecution) =>
  run.condition_met ? ` Stop condition met${run.stop_evaluation?.reason ? ` (${run.stop_evaluation.reason})` : ''}.` : '';

function quoteTitles(titles: string[]): string {
  const shown = titles.slice(0, 3).map((t) => `“${t}”`);
  return titles.length > 3 ? `${shown.join(', ')} and ${titles.length - 3} more` : shown.join(', ');
}
