import { ShareStateSchema } from '../accounts/schemas.js';
import { IdParams, ListQuery, ShareBody } from '../core/schemas.js';
import { pricing } from '../credits/pricing.js';
import { defineOperation } from '../accounts/operation.js';
import { IntentAssessment } from './assess.js';
import { WorkflowPlan } from './planner.js';
import { PlanJobSchema, WorkflowCreateResponse, WorkflowDeleted, WorkflowDetail, WorkflowExecuteResponse, WorkflowExecutionList, WorkflowList, WorkflowSchema } from './responses.js';
import { AssessIntentBody, PlanBody, WorkflowCreateBody, WorkflowExecuteBody, WorkflowListQuery, WorkflowPatchBody } from './schemas.js';
import type { WorkflowsService } from './service.js';

type Services = { workflows: WorkflowsService };
const base = { scope: 'workflow', tag: 'workflows' } as const;
const presets = (['quick', 'standard', 'thorough', 'comprehensive'] as const).map((p) => `${p} ${pricing.planPreview(p).credits}`).join(', ');

// Executions are charged one by one as the schedule runs them (and a crawl step page by page): the executor does it.
export const workflowOperations = {
  assessIntent: defineOperation({
    ...base,
    id: 'assessIntent',
    summary: 'Assess how specific a monitoring intent is',
    description: 'Free; 10 per hour per user, after which the heuristic answers with fallback_reason_code rate_limited. Never fails on model trouble.',
    body: AssessIntentBody,
    output: IntentAssessment,
    run: (s: Services, principal, { body }) => s.workflows.assessIntent(principal, body),
  }),
  plan: defineOperation({
    ...base,
    id: 'planWorkflow',
    summary: 'Plan a workflow from an intent',
    description: `Charged by preset: ${presets} credits (402 when short).`,
    body: PlanBody,
    output: WorkflowPlan,
    run: (s: Services, principal, { body }) => s.workflows.plan(principal, body),
  }),
  planAsync: defineOperation({
    ...base,
    id: 'planWorkflowAsync',
    summary: 'Plan a workflow in the background',
    description: 'Answers 202 with a plan job; poll GET /v1/workflows/plan/async/{id}. Charged as POST /v1/workflows/plan when it runs.',
    body: PlanBody,
    output: PlanJobSchema,
    run: (s: Services, principal, { body }) => s.workflows.planAsync(principal, body),
  }),
  planJob: defineOperation({
    ...base,
    id: 'getWorkflowPlanJob',
    summary: 'Poll an asynchronous plan',
    params: IdParams,
    output: PlanJobSchema,
    run: (s: Services, principal, { params }) => s.workflows.planJob(principal, params.id!),
  }),
  list: defineOperation({
    ...base,
    id: 'listWorkflows',
    summary: 'List workflows',
    description: 'Archived workflows are left out unless status=archived is asked for.',
    query: WorkflowListQuery,
    output: WorkflowList,
    run: (s: Services, principal, { query }) => s.workflows.list(principal, query),
  }),
  create: defineOperation({
    ...base,
    id: 'createWorkflow',
    summary: 'Create a workflow (dry_run estimates only)',
    body: WorkflowCreateBody,
    output: WorkflowCreateResponse,
    run: (s: Services, principal, { body }) => s.workflows.create(principal, body),
  }),
  get: defineOperation({
    ...base,
    id: 'getWorkflow',
    summary: 'A workflow with its five most recent executions',
    params: IdParams,
    output: WorkflowDetail,
    run: (s: Services, principal, { params }) => s.workflows.get(principal, params.id!),
  }),
  update: defineOperation({
    ...base,
    id: 'updateWorkflow',
    summary: 'Edit a workflow or move its status',
    description: 'Status moves follow the state machine in docs/workflows.md; others answer 409 workflow_transition_invalid.',
    params: IdParams,
    body: WorkflowPatchBody,
    output: WorkflowSchema,
    run: (s: Services, principal, { params, body }) => s.workflows.update(principal, params.id!, body),
  }),
  delete: defineOperation({
    ...base,
    id: 'deleteWorkflow',
    summary: 'Delete a workflow and stop its patrols',
    params: IdParams,
    output: WorkflowDeleted,
    run: (s: Services, principal, { params }) => s.workflows.delete(principal, params.id!),
  }),
  execute: defineOperation({
    ...base,
    id: 'executeWorkflow',
    summary: 'Run a workflow now (dry_run estimates only)',
    params: IdParams,
    body: WorkflowExecuteBody,
    output: WorkflowExecuteResponse,
    run: (s: Services, principal, { params, body }) => s.workflows.execute(principal, params.id!, body ?? {}),
  }),
  executions: defineOperation({
    ...base,
    id: 'listWorkflowExecutions',
    summary: 'Every execution of a workflow, newest first, with results',
    params: IdParams,
    query: ListQuery,
    output: WorkflowExecutionList,
    run: (s: Services, principal, { params, query }) => s.workflows.executions(principal, params.id!, query),
  }),
  share: defineOperation({
    ...base,
    id: 'shareWorkflow',
    summary: 'Share a workflow with an organization or publicly (read-only for others)',
    params: IdParams,
    body: ShareBody,
    output: ShareStateSchema,
    run: (s: Services, principal, { params, body }) => s.workflows.share(principal, params.id!, body),
  }),
};
