import type { Request } from '../transport.js';
import { itemPath, type DryRunAware, type Schemas } from './types.js';
import { last, watch, type WatchOptions } from './watch.js';

export type WorkflowCreateBody = Schemas['WorkflowCreateRequest'];
export type WorkflowPatchBody = Schemas['WorkflowPatchRequest'];
export type PlanBody = Schemas['PlanRequest'];
type Created = Schemas['WorkflowCreateResponse'];
type Executed = Schemas['WorkflowExecuteResponse'];
export type WorkflowPlanJob = Schemas['WorkflowPlanJob'];

export interface WorkflowListQuery {
  limit?: number;
  offset?: number;
  status?: Schemas['Workflow']['status'];
  scope?: 'all' | 'owned' | 'shared';
  search?: string;
  /** Comma-separated; a workflow must carry every tag. */
  tags?: string;
  sort_by?: 'created' | 'updated' | 'name';
  sort_order?: 'asc' | 'desc';
}

const path = itemPath('/v1/workflows');

const planJob = itemPath('/v1/workflows/plan/async');

export const workflowsResource = (request: Request) => {
  const planAsync = (body: PlanBody) => request<WorkflowPlanJob>('POST', '/v1/workflows/plan/async', { body });
  const getPlanJob = (id: string) => request<WorkflowPlanJob>('GET', planJob(id));
  /** A plan job until it ends: one snapshot per poll. */
  const watchPlan = (id: string, options: WatchOptions = {}) => watch(`plan job ${id}`, () => getPlanJob(id), (j) => j.status !== 'running', options);
  return {
    /** `{ dry_run: false, workflow }`, or (with `dry_run: true`) `{ dry_run: true, workflow: null, estimate }`. */
    create: ((body: WorkflowCreateBody) => request('POST', '/v1/workflows', { body })) as DryRunAware<
      WorkflowCreateBody,
      Extract<Created, { dry_run: false }>,
      Extract<Created, { dry_run: true }>
    >,
    list: (query: WorkflowListQuery = {}) => request<Schemas['WorkflowList']>('GET', '/v1/workflows', { query: { ...query } }),
    get: (id: string) => request<Schemas['WorkflowDetail']>('GET', path(id)),
    update: (id: string, body: WorkflowPatchBody) => request<Schemas['Workflow']>('PATCH', path(id), { body }),
    pause: (id: string) => request<Schemas['Workflow']>('PATCH', path(id), { body: { status: 'paused' } }),
    resume: (id: string) => request<Schemas['Workflow']>('PATCH', path(id), { body: { status: 'active' } }),
    delete: (id: string) => request<Schemas['WorkflowDeleted']>('DELETE', path(id)),
    /** Runs the workflow now: its execution, or (with `dry_run: true`) the estimate. */
    execute: ((id: string, body: { dry_run?: boolean } = {}) => request('POST', path(id, '/execute'), { body })) as DryRunAware<
      { dry_run?: boolean },
      Extract<Executed, { dry_run: false }>,
      Extract<Executed, { dry_run: true }>,
      [id: string]
    > &
      ((id: string) => Promise<Extract<Executed, { dry_run: false }>>),
    executions: (id: string, query: { limit?: number; offset?: number } = {}) =>
      request<Schemas['WorkflowExecutionList']>('GET', path(id, '/executions'), { query: { ...query } }),
    share: (id: string, body: Schemas['ShareRequest']) => request<Schemas['ShareState']>('POST', path(id, '/share'), { body }),
    assessIntent: (body: { intent: string; timeout?: number }) => request<Schemas['IntentAssessment']>('POST', '/v1/workflows/assess-intent', { body }),
    plan: (body: PlanBody) => request<Schemas['WorkflowPlan']>('POST', '/v1/workflows/plan', { body }),
    planAsync,
    planJob: getPlanJob,
    watchPlan,
    /** Plans in the background (POST /v1/workflows/plan/async) and waits for the finished plan job. */
    planAndWait: async (body: PlanBody, options: WatchOptions = {}): Promise<WorkflowPlanJob> => {
      const started = await planAsync(body);
      return started.status === 'running' ? last(watchPlan(started.id, options)) : started;
    },
  };
};
