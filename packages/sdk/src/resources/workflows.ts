import type { Request } from '../transport.js';
import { itemPath, type Schemas } from './types.js';

export type WorkflowCreateBody = Schemas['WorkflowCreateRequest'];
export type WorkflowPatchBody = Schemas['WorkflowPatchRequest'];
export type PlanBody = Schemas['PlanRequest'];

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

export const workflowsResource = (request: Request) => ({
  create: (body: WorkflowCreateBody) => request<Schemas['WorkflowCreateResponse']>('POST', '/v1/workflows', { body }),
  list: (query: WorkflowListQuery = {}) => request<Schemas['WorkflowList']>('GET', '/v1/workflows', { query: { ...query } }),
  get: (id: string) => request<Schemas['WorkflowDetail']>('GET', path(id)),
  update: (id: string, body: WorkflowPatchBody) => request<Schemas['Workflow']>('PATCH', path(id), { body }),
  pause: (id: string) => request<Schemas['Workflow']>('PATCH', path(id), { body: { status: 'paused' } }),
  resume: (id: string) => request<Schemas['Workflow']>('PATCH', path(id), { body: { status: 'active' } }),
  delete: (id: string) => request<Schemas['WorkflowDeleted']>('DELETE', path(id)),
  execute: (id: string, body: { dry_run?: boolean } = {}) => request<Schemas['WorkflowExecuteResponse']>('POST', path(id, '/execute'), { body }),
  executions: (id: string, query: { limit?: number; offset?: number } = {}) =>
    request<Schemas['WorkflowExecutionList']>('GET', path(id, '/executions'), { query: { ...query } }),
  share: (id: string, body: Schemas['ShareRequest']) => request<Schemas['ShareState']>('POST', path(id, '/share'), { body }),
  assessIntent: (body: { intent: string; timeout?: number }) => request<Schemas['IntentAssessment']>('POST', '/v1/workflows/assess-intent', { body }),
  plan: (body: PlanBody) => request<Schemas['WorkflowPlan']>('POST', '/v1/workflows/plan', { body }),
  planAsync: (body: PlanBody) => request<Schemas['WorkflowPlanJob']>('POST', '/v1/workflows/plan/async', { body }),
  planJob: (id: string) => request<Schemas['WorkflowPlanJob']>('GET', `/v1/workflows/plan/async/${encodeURIComponent(id)}`),
});
