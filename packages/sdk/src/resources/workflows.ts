import type { Request } from '../transport.js';
import type { Schemas } from './types.js';

/** Request fields that have a server-side default may be left out. */
type WithDefaults<T, Required extends keyof T> = Pick<T, Required> & Partial<Omit<T, Required>>;
type Step = Schemas['WorkflowStep'];
type ConfigOf<K extends Step['type']> = Extract<Step, { type: K }>['config'];
type StepOf<K extends Step['type'], Req extends keyof ConfigOf<K>> = Omit<Extract<Step, { type: K }>, 'config'> & {
  config: WithDefaults<ConfigOf<K>, Req>;
};
type StopConditionInput = Schemas['StopCondition'] extends infer S
  ? S extends { type: 'natural_language' }
    ? Omit<S, 'confidence_threshold'> & { confidence_threshold?: number }
    : S
  : never;

export type WorkflowStepInput = StepOf<'search', 'query'> | StepOf<'crawl', 'urls'> | StepOf<'aggregate', never>;
export type WorkflowCreateBody = Omit<WithDefaults<Schemas['WorkflowCreateRequest'], 'name'>, 'steps' | 'stop_condition'> & {
  steps?: WorkflowStepInput[];
  stop_condition?: StopConditionInput;
};
export type WorkflowPatchBody = Omit<Schemas['WorkflowPatchRequest'], 'stop_condition'> & { stop_condition?: StopConditionInput };
export type PlanBody = WithDefaults<Schemas['PlanRequest'], 'intent'>;

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

const path = (id: string, rest = '') => `/v1/workflows/${encodeURIComponent(id)}${rest}`;

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
