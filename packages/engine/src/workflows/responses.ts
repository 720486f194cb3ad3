import { z } from 'zod';
import { CreditsInfoSchema } from '../credits/schemas.js';
import { SearchSummarySchema, SourceType } from '../search/schemas.js';
import { StopCondition, WorkflowMode, WorkflowStatus, WorkflowStep, WorkflowType, NotificationConfig } from './schemas.js';

const ResultItem = z.object({
  url: z.string(),
  title: z.string(),
  description: z.string(),
  published_date: z.string().nullable(),
  relevance_score: z.number().optional().describe('Search results: the provider score, or the rerank score under rerank_results'),
  source_type: SourceType.optional().describe('Search results: academic, commercial, news, community or mixed'),
  fingerprint: z.string().optional(),
  extracted_data: z.record(z.string(), z.unknown()).nullable().optional(),
  matched_queries: z.array(z.string()).optional().describe('Search steps with query_decomposition: the sub-queries that returned this result'),
});

export const ResultChangesSchema = z
  .object({
    net_new_count: z.number().int(),
    dropped_count: z.number().int(),
    retained_count: z.number().int(),
    change_rate: z.number().describe('(new + dropped) / unique URLs over both executions x 100'),
    net_new_urls: z.array(z.object({ url: z.string(), title: z.string(), snippet: z.string(), published_date: z.string().nullable() })),
    dropped_urls: z.array(z.string()),
    previous_execution_id: z.string().nullable(),
    first_seen_count: z.number().int().optional().describe('With a session_id: results the session had never returned before'),
    changed_urls: z.array(z.string()).optional().describe('Crawl workflows: pages whose clean text changed'),
    page_diffs: z.array(z.object({ url: z.string(), previous_fingerprint: z.string(), fingerprint: z.string(), diff: z.string() })).optional(),
  })
  .meta({ id: 'WorkflowResultChanges' });

export const IntentRelevanceFilterSchema = z
  .object({
    filtered_count: z.number().int(),
    filtered_items: z.array(z.object({ url: z.string(), title: z.string(), reason: z.string() })),
    monitoring_intent_used: z.string(),
    monitoring_intent_source: z.enum(['intent', 'description', 'operation_config.query', 'name']),
    filtering_enabled: z.boolean(),
    classifications: z.array(z.object({ url: z.string(), relevance: z.enum(['NEW', 'CONTEXT', 'UPDATE', 'IRRELEVANT']) })),
    signal_suppressed: z.boolean(),
  })
  .meta({ id: 'IntentRelevanceFilter' });

const StopEvaluationSchema = z.object({
  condition_met: z.boolean(),
  type: z.string(),
  reason: z.string(),
  confidence: z.number().optional(),
  judged_by: z.enum(['llm', 'heuristic']).optional(),
  evidence_url: z.string().optional(),
});

const StepRun = z.object({
  id: z.string(),
  type: z.string(),
  status: z.enum(['completed', 'skipped', 'failed']),
  result_count: z.number().int(),
  credits: z.number(),
  reason: z.string().optional(),
  sub_queries: z.array(z.string()).optional().describe('Search steps with query_decomposition: the sub-queries it ran'),
});

export const WorkflowExecutionSchema = z
  .object({
    id: z.string(),
    workflow_id: z.string(),
    seq: z.number().int(),
    trigger: z.enum(['manual', 'schedule']),
    slot: z.string().nullable(),
    status: z.enum(['completed', 'failed']),
    started_at: z.string(),
    finished_at: z.string(),
    credits: CreditsInfoSchema,
    condition_met: z.boolean(),
    stop_evaluation: StopEvaluationSchema.nullable(),
    result_count: z.number().int(),
    result_changes: ResultChangesSchema.nullable(),
    intent_relevance_filter: IntentRelevanceFilterSchema.nullable(),
    steps: z.array(StepRun).optional(),
    results: z.array(ResultItem).optional(),
    summary: SearchSummarySchema.nullable().optional().describe('Simple search patrols: the summary generate_summary asked for'),
    suggested_queries: z.array(z.string()).optional().describe('Simple search patrols: follow-up queries generate_suggestions asked for'),
    error: z.object({ code: z.string(), message: z.string() }).optional(),
    notification: z.object({ suppressed: z.boolean(), events: z.array(z.string()) }),
    session: z
      .object({ id: z.string(), recorded: z.boolean(), problem: z.string().optional().describe('Why the execution was not recorded in the session') })
      .optional(),
  })
  .meta({ id: 'WorkflowExecution' });
export type WorkflowExecution = z.infer<typeof WorkflowExecutionSchema>;

export const WorkflowExecutionList = z
  .object({ data: z.array(WorkflowExecutionSchema), total: z.number().int(), limit: z.number().int(), offset: z.number().int() })
  .meta({ id: 'WorkflowExecutionList' });

const executeStatus = { workflow_id: z.string(), status: WorkflowStatus };
/** A dry run carries the estimate and no execution; a real run its execution: one shape per case, so clients narrow on dry_run. */
export const WorkflowExecuteResponse = z
  .discriminatedUnion('dry_run', [
    z.object({ ...executeStatus, dry_run: z.literal(false), execution: WorkflowExecutionSchema }),
    z.object({
      ...executeStatus,
      dry_run: z.literal(true),
      execution: z.null(),
      estimate: z.object({ credits: z.number(), would_succeed: z.boolean(), credits_balance: z.number() }),
    }),
  ])
  .meta({ id: 'WorkflowExecuteResponse' });

export const WorkflowSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    mode: WorkflowMode,
    workflow_type: WorkflowType.nullable(),
    operation_config: z.record(z.string(), z.unknown()).nullable(),
    steps: z.array(WorkflowStep).nullable(),
    intent: z.string().nullable(),
    max_credits_per_execution: z.number().nullable(),
    stop_condition: StopCondition,
    max_executions: z.number().int().nullable(),
    notification_config: NotificationConfig.nullable(),
    session_id: z.string().nullable(),
    tags: z.array(z.string()),
    interval: z.string().nullable(),
    interval_minutes: z.number().int().nullable(),
    cron_expression: z.string().nullable(),
    scheduled_for: z.string().nullable(),
    anchor_minute: z.number().int().nullable(),
    timezone: z.string(),
    status: WorkflowStatus,
    status_reason: z.string().nullable(),
    execution_count: z.number().int(),
    next_run_at: z.string().nullable(),
    last_run_at: z.string().nullable(),
    estimated_credits_per_execution: z.number(),
    access_level: z.enum(['owner', 'org_viewer', 'public']),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Workflow' });
export type Workflow = z.infer<typeof WorkflowSchema>;

export const WorkflowDetail = WorkflowSchema.extend({
  recent_executions: z.array(WorkflowExecutionSchema.omit({ results: true })),
}).meta({ id: 'WorkflowDetail' });

export const WorkflowList = z
  .object({ data: z.array(WorkflowSchema), total: z.number().int(), limit: z.number().int(), offset: z.number().int() })
  .meta({ id: 'WorkflowList' });

const createEstimate = z.object({ credits_per_execution: z.number(), would_succeed: z.boolean(), credits_balance: z.number(), first_run_at: z.string().nullable() });
/** The created workflow, or (dry_run) only the estimate: clients narrow on dry_run. */
export const WorkflowCreateResponse = z
  .discriminatedUnion('dry_run', [
    z.object({ dry_run: z.literal(false), workflow: WorkflowSchema, estimate: createEstimate }),
    z.object({ dry_run: z.literal(true), workflow: z.null(), estimate: createEstimate }),
  ])
  .meta({ id: 'WorkflowCreateResponse' });

export const WorkflowDeleted = z.object({ id: z.string(), deleted: z.literal(true) }).meta({ id: 'WorkflowDeleted' });

export const PlanJobSchema = z
  .object({
    id: z.string(),
    status: z.enum(['running', 'completed', 'failed']),
    created_at: z.string(),
    completed_at: z.string().nullable(),
    result: z.record(z.string(), z.unknown()).nullable(),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
  })
  .meta({ id: 'WorkflowPlanJob' });
