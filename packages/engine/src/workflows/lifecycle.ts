import { errors } from '../core/errors.js';
import type { z } from 'zod';
import type { WorkflowStatus } from './schemas.js';

export type Status = z.output<typeof WorkflowStatus>;

/**
 * Where PATCH { status } may move a workflow (docs/workflows.md has the whole table).
 * planning → active | plan_failed and active → completed | failed also happen inside the
 * engine (planner, stop condition, max_executions, failures); those moves are not listed here
 * because callers cannot ask for them except completed.
 */
const PATCH_MOVES: Record<Status, readonly Status[]> = {
  active: ['paused', 'completed', 'stopped', 'archived'],
  paused: ['active', 'completed', 'stopped', 'archived'],
  completed: ['active', 'archived'],
  failed: ['active', 'stopped', 'archived'],
  stopped: ['archived'],
  plan_failed: ['archived'],
  planning: [],
  archived: [],
};

/** Statuses whose schedule runs. */
export const SCHEDULED: readonly Status[] = ['active'];

/** Statuses in which POST /execute runs a patrol by hand. */
const RUNNABLE: readonly Status[] = ['active', 'paused', 'failed'];

/** Statuses in which the editable fields other than status may change. */
const EDITABLE: readonly Status[] = ['active', 'paused', 'completed', 'failed', 'stopped'];

export function assertTransition(id: string, from: Status, to: Status): void {
  if (from === to) return;
  const allowed = PATCH_MOVES[from];
  if (allowed.includes(to)) return;
  throw errors.conflict('workflow_transition_invalid', `A ${from} workflow cannot become ${to}.`, {
    details: { workflow_id: id, from, to, allowed },
    suggestions: allowed.length > 0 ? [`From ${from} the status may become: ${allowed.join(', ')}.`] : [`A ${from} workflow's status cannot be changed.`],
  });
}

export function assertRunnable(id: string, status: Status): void {
  if (RUNNABLE.includes(status)) return;
  throw errors.conflict(`workflow_${status}`, `A ${status} workflow cannot run.`, {
    details: { workflow_id: id, status, runnable_statuses: RUNNABLE },
    suggestions: status === 'completed' ? ['PATCH status active to resume patrols, then run again.'] : ['Create a new workflow.'],
  });
}

export function assertEditable(id: string, status: Status): void {
  if (EDITABLE.includes(status)) return;
  throw errors.conflict(`workflow_${status}`, `A ${status} workflow cannot be edited.`, {
    details: { workflow_id: id, status },
  });
}
