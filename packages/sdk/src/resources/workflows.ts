import type { Request } from '../transport.js';
import { operationCaller, type Body, type DryRunAware, type Output, type Query } from './types.js';
import { last, watch, type WatchOptions } from './watch.js';

export type WorkflowCreateBody = Body<'createWorkflow'>;
export type WorkflowPatchBody = Body<'updateWorkflow'>;
export type PlanBody = Body<'planWorkflow'>;
type Created = Output<'createWorkflow'>;
type Executed = Output<'executeWorkflow'>;
export type WorkflowPlanJob = Output<'getWorkflowPlanJob'>;

export type WorkflowListQuery = Query<'listWorkflows'>;

export const workflowsResource = (request: Request) => {
  const call = operationCaller(request);
  const planAsync = (body: PlanBody) => call('planWorkflowAsync', { body });
  const getPlanJob = (id: string) => call('getWorkflowPlanJob', { id });
  /** A plan job until it ends: one snapshot per poll. */
  const watchPlan = (id: string, options: WatchOptions = {}) => watch(`plan job ${id}`, () => getPlanJob(id), (j) => j.status !== 'running', options);
  return {
    /** `{ dry_run: false, workflow }`, or (with `dry_run: true`) `{ dry_run: true, workflow: null, estimate }`. */
    create: ((body: WorkflowCreateBody) => call('createWorkflow', { body })) as DryRunAware<
      WorkflowCreateBody,
      Extract<Created, { dry_run: false }>,
      Extract<Created, { dry_run: true }>
    >,
    list: (query: WorkflowListQuery = {}) => call('listWorkflows', { query }),
    get: (id: string) => call('getWorkflow', { id }),
    update: (id: string, body: WorkflowPatchBody) => call('updateWorkflow', { id, body }),
    pause: (id: string) => call('updateWorkflow', { id, body: { status: 'paused' } }),
    resume: (id: string) => call('updateWorkflow', { id, body: { status: 'active' } }),
    delete: (id: string) => call('deleteWorkflow', { id }),
    /** Runs the workflow now: its execution, or (with `dry_run: true`) the estimate. */
    execute: ((id: string, body: { dry_run?: boolean } = {}) => call('executeWorkflow', { id, body })) as DryRunAware<
      { dry_run?: boolean },
      Extract<Executed, { dry_run: false }>,
      Extract<Executed, { dry_run: true }>,
      [id: string]
    > &
      ((id: string) => Promise<Extract<Executed, { dry_run: false }>>),
    executions: (id: string, query: Query<'listWorkflowExecutions'> = {}) => call('listWorkflowExecutions', { id, query }),
    share: (id: string, body: Body<'shareWorkflow'>) => call('shareWorkflow', { id, body }),
    assessIntent: (body: Body<'assessIntent'>) => call('assessIntent', { body }),
    plan: (body: PlanBody) => call('planWorkflow', { body }),
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
