import { z } from 'zod';
import { HttpUrl, ListQuery, MAX_URL_LENGTH, Uuid } from '../core/schemas.js';
import { CrawlFields } from '../crawl/schemas.js';
import { ExtractionSchema } from '../extract/schemas.js';
import { SearchRunBody } from '../search/schemas.js';
import { RenderModeSchema } from '../web/render/schema.js';
import { cronProblem, findCycle, intervalToMinutes, isValidTimeZone } from './schedule-rules.js';

export const WorkflowMode = z.enum(['simple', 'multi_step', 'ai_planned']);
export const WorkflowType = z.enum(['search', 'crawl']);
export const WorkflowStatus = z.enum(['active', 'paused', 'completed', 'failed', 'stopped', 'planning', 'plan_failed', 'archived']);

const Comparison = z.enum(['>', '<', '>=', '<=', '==']);
const FieldComparison = z.enum(['>', '<', '>=', '<=', '==', '!=', 'contains']);
const confidence = z.number().min(0).max(1);

export const StopCondition = z
  .discriminatedUnion('type', [
    z.strictObject({ type: z.literal('result_count'), operator: Comparison, value: z.number() }),
    z.strictObject({ type: z.literal('contains_url'), url: z.string().min(1).max(MAX_URL_LENGTH) }),
    z.strictObject({
      type: z.literal('field_value'),
      field: z.string().min(1).max(200),
      operator: FieldComparison,
      value: z.union([z.string(), z.number(), z.boolean()]),
      evaluate_on_first_run: z
        .boolean()
        .default(false)
        .describe('On a change field (net_new_count, dropped_count, retained_count, change_rate): also judge the first execution, the baseline in which every result counts as new'),
    }),
    z.strictObject({ type: z.literal('extracted_field'), field: z.string().min(1).max(200), operator: FieldComparison, value: z.union([z.string(), z.number(), z.boolean()]) }),
    z.strictObject({
      type: z.literal('natural_language'),
      description: z.string().trim().min(10).max(2000),
      confidence_threshold: confidence.default(0.7).describe('0.8-0.9 strong evidence, 0.6-0.7 balanced, 0.4-0.5 permissive'),
    }),
    z.strictObject({ type: z.literal('always') }),
    // From the spec's machine-readable schema.
    z.strictObject({ type: z.literal('none') }),
    z.strictObject({ type: z.literal('threshold'), confidence_threshold: confidence.default(0.7).describe('The same default as natural_language'), description: z.string().max(2000).optional() }),
  ])
  .meta({ id: 'StopCondition' });

/** What a search patrol runs: the search request without delivery (mode, webhook, dry_run) or session. */
export const SearchOperationConfig = SearchRunBody;

const { processing_mode: _pm, dry_run: _dr, webhook_url: _wu, session_id: _si, ...crawlConfigFields } = CrawlFields;
export const CrawlOperationConfig = z.strictObject(crawlConfigFields);

const StepBase = {
  id: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, { message: 'must be 1-64 letters, digits, _ or -' }),
  depends_on: z.array(z.string()).max(20).optional(),
  output_key: z.string().regex(/^[a-zA-Z_][a-zA-Z0-9_]*$/).max(64).optional().describe('Name later steps use to refer to this output'),
  cascade_condition: z.string().max(500).optional().describe('Run only when this holds for the dependencies’ outputs'),
};

export const WorkflowStep = z
  .discriminatedUnion('type', [
    z.strictObject({
      ...StepBase,
      type: z.literal('search'),
      config: z.strictObject({
        query: z.string().trim().min(1).max(1000),
        max_results: z.number().int().min(1).max(20).default(10),
        query_decomposition: z.boolean().default(false),
      }),
    }),
    z.strictObject({
      ...StepBase,
      type: z.literal('crawl'),
      config: z.strictObject({
        urls: z.array(z.string().min(1).max(MAX_URL_LENGTH)).min(1).max(100).describe('URLs, or {{output_key}} references to earlier steps'),
        max_pages: z.number().int().min(1).max(1000).default(10),
        extraction_schema: ExtractionSchema.optional(),
        // Optional, not defaulted: a step stored without them runs as the crawl's own defaults say (auto, skip).
        render: RenderModeSchema.optional().describe(
          'wvr extension, as on a crawl: never, auto (the default: only pages that look like an application shell are rendered in headless Chromium) or always. A rendered page is priced at the advanced tier',
        ),
        sitemap: z
          .enum(['skip', 'include'])
          .optional()
          .describe("wvr extension, as on a crawl: include seeds the step's crawl with the URLs its sites' sitemaps list (as POST /v1/map reads them); no extra charge"),
      }),
    }),
    z.strictObject({
      ...StepBase,
      type: z.literal('aggregate'),
      config: z.strictObject({
        aggregation_type: z.enum(['merge', 'deduplicate', 'summarize', 'compare']).default('merge'),
        format: z.enum(['json', 'markdown', 'table']).default('json'),
      }),
    }),
  ])
  .meta({ id: 'WorkflowStep' });

const name = z.string().trim().min(1).max(255);
const intent = z.string().trim().min(10).max(2000);

export const NotificationConfig = z
  .strictObject({ email: z.boolean().default(false), webhook_url: HttpUrl.optional() })
  .meta({ id: 'NotificationConfig' });

const ScheduleFields = {
  interval: z.string().max(50).optional().describe('"N minutes|hours|days|weeks"'),
  interval_minutes: z.number().int().min(1).max(525_600).optional().describe('Raw minutes; wins over interval'),
  cron_expression: z.string().max(200).optional().describe('5-field cron'),
  scheduled_for: z.string().max(64).optional().describe('ISO 8601 time of a one-time run'),
  anchor_minute: z.number().int().min(0).max(59).optional(),
  timezone: z.string().max(64).default('UTC').describe('IANA time zone'),
};

type ScheduleInput = { [K in keyof typeof ScheduleFields]?: z.output<(typeof ScheduleFields)[K]> };

function scheduleRules<T extends ScheduleInput>(body: T, ctx: z.RefinementCtx<T>, requireOne: boolean): void {
  const issue = (path: string, code: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message, params: { code } });
  if (body.interval !== undefined && intervalToMinutes(body.interval) === null) {
    issue('interval', 'interval_invalid', 'must be "N minutes", "N hours", "N days" or "N weeks", from 1 minute to 525600 minutes (1 year)');
  }
  if (body.cron_expression !== undefined) {
    const problem = cronProblem(body.cron_expression);
    if (problem) issue('cron_expression', 'cron_expression_invalid', problem);
  }
  if (body.scheduled_for !== undefined && !z.iso.datetime({ offset: true }).safeParse(body.scheduled_for).success) {
    issue('scheduled_for', 'scheduled_for_invalid', 'must be an ISO 8601 date-time, e.g. 2026-05-01T09:00:00Z');
  }
  if (body.timezone !== undefined && !isValidTimeZone(body.timezone)) {
    issue('timezone', 'timezone_invalid', 'must be an IANA time zone such as Europe/Berlin');
  }
  if (body.cron_expression !== undefined && (body.interval !== undefined || body.interval_minutes !== undefined)) {
    const both = body.interval !== undefined ? 'interval' : 'interval_minutes';
    issue('cron_expression', 'schedule_conflict', `cannot be given together with ${both}: a workflow runs on one or the other (send cron_expression or ${both}, not both)`);
  }
  const given = [body.interval, body.interval_minutes, body.cron_expression, body.scheduled_for].filter((v) => v !== undefined);
  if (requireOne && given.length === 0) {
    ctx.addIssue({
      code: 'custom',
      path: [],
      message: 'needs a schedule: interval, interval_minutes, cron_expression or scheduled_for',
      params: { code: 'schedule_required' },
    });
  }
}

function operationConfigRules<T extends { workflow_type?: 'search' | 'crawl' | undefined; operation_config?: unknown }>(
  body: T,
  ctx: z.RefinementCtx<T>,
): void {
  if (body.operation_config === undefined || body.workflow_type === undefined) return;
  const schema = body.workflow_type === 'search' ? SearchOperationConfig : CrawlOperationConfig;
  const parsed = schema.safeParse(body.operation_config);
  if (parsed.success) return;
  for (const inner of parsed.error.issues) {
    ctx.addIssue({
      code: 'custom',
      path: ['operation_config', ...inner.path.map((p) => (typeof p === 'symbol' ? String(p) : p))],
      message: `${inner.message} (as a ${body.workflow_type} configuration)`,
      params: { code: 'operation_config_invalid' },
    });
  }
}

export const WorkflowCreateBody = z
  .strictObject({
    name: name.describe('At most 255 characters'),
    description: z.string().max(5000).optional(),
    mode: WorkflowMode.default('simple'),
    workflow_type: WorkflowType.optional().describe('simple mode: search or crawl'),
    operation_config: z.record(z.string(), z.unknown()).optional().describe('simple mode: the search or crawl configuration'),
    steps: z.array(WorkflowStep).min(1).max(20).optional().describe('multi_step mode: the pipeline'),
    intent: intent.optional().describe('ai_planned mode: what to monitor'),
    max_credits_per_execution: z.number().positive().max(10_000).optional().describe('ai_planned mode: execution budget'),
    // Optional, defaulting to `always`: the spec's machine-readable schema does not require it.
    stop_condition: StopCondition.default({ type: 'always' }),
    dry_run: z.boolean().default(false).describe('Estimate the cost without creating'),
    max_executions: z.number().int().min(1).max(100_000).optional(),
    notification_config: NotificationConfig.optional(),
    session_id: Uuid.optional(),
    tags: z.array(z.string().trim().min(1).max(50)).max(20).optional(),
    ...ScheduleFields,
  })
  .superRefine((body, ctx) => {
    const need = (field: string, code: string, message: string) =>
      ctx.addIssue({ code: 'custom', path: [field], message, params: { code } });
    if (body.mode === 'simple') {
      if (!body.workflow_type) need('workflow_type', 'workflow_type_required', 'is required in simple mode (search or crawl)');
      if (!body.operation_config) need('operation_config', 'operation_config_required', 'is required in simple mode');
      operationConfigRules(body, ctx);
    } else if (body.operation_config !== undefined) {
      // The same answer PATCH gives: the pipeline's steps carry their own configuration.
      need('operation_config', 'operation_config_not_applicable', `applies to simple workflows; this one is ${body.mode}`);
    }
    if (body.mode === 'multi_step') {
      if (!body.steps) {
        need('steps', 'steps_required', 'is required in multi_step mode');
      } else {
        stepRules(body.steps, ctx);
      }
    }
    if (body.mode === 'ai_planned') {
      if (!body.intent) need('intent', 'intent_required', 'is required in ai_planned mode');
      if (body.max_credits_per_execution === undefined) {
        need('max_credits_per_execution', 'max_credits_per_execution_required', 'is required in ai_planned mode');
      }
    }
    scheduleRules(body, ctx, true);
  })
  .meta({ id: 'WorkflowCreateRequest' });

function stepRules<T>(steps: z.output<typeof WorkflowStep>[], ctx: z.RefinementCtx<T>): void {
  const ids = new Set<string>();
  for (const [i, step] of steps.entries()) {
    if (ids.has(step.id)) {
      ctx.addIssue({ code: 'custom', path: ['steps', i, 'id'], message: `repeats step id "${step.id}"`, params: { code: 'step_duplicate_id' } });
    }
    ids.add(step.id);
  }
  for (const [i, step] of steps.entries()) {
    for (const dep of step.depends_on ?? []) {
      if (!ids.has(dep)) {
        ctx.addIssue({
          code: 'custom',
          path: ['steps', i, 'depends_on'],
          message: `names unknown step "${dep}"`,
          params: { code: 'step_unknown_dependency' },
        });
      }
    }
  }
  const cycle = findCycle(steps);
  if (cycle) {
    ctx.addIssue({ code: 'custom', path: ['steps'], message: `form a cycle: ${cycle.join(' → ')}`, params: { code: 'steps_cycle' } });
  }
}

export const WorkflowPatchBody = z
  .strictObject({
    name: name.optional(),
    workflow_type: WorkflowType.optional(),
    operation_config: z.record(z.string(), z.unknown()).optional(),
    stop_condition: StopCondition.optional(),
    interval_minutes: z.number().int().min(1).max(525_600).optional(),
    max_executions: z.number().int().min(1).max(100_000).nullable().optional(),
    status: z.enum(['active', 'paused', 'completed', 'stopped', 'archived']).optional(),
    session_id: Uuid.nullable().optional(),
  })
  .superRefine((body, ctx) => {
    if (Object.keys(body).length === 0) {
      ctx.addIssue({ code: 'custom', path: [], message: 'must change at least one field', params: { code: 'patch_body_empty' } });
    }
    operationConfigRules(body, ctx);
  })
  .meta({ id: 'WorkflowPatchRequest' });

/** A PATCH may send operation_config alone: it is checked against the workflow's stored type. */
export const OperationConfigCheck = z
  .object({ workflow_type: WorkflowType, operation_config: z.record(z.string(), z.unknown()) })
  .superRefine(operationConfigRules);

export const WorkflowExecuteBody = z
  .strictObject({ dry_run: z.boolean().default(false) })
  .meta({ id: 'WorkflowExecuteRequest' });

export const WorkflowListQuery = ListQuery.extend({
  status: WorkflowStatus.optional(),
  scope: z.enum(['all', 'owned', 'shared']).default('all'),
  search: z.string().max(200).optional(),
  tags: z
    .string()
    .max(500)
    .transform((s) => s.split(',').map((t) => t.trim()).filter(Boolean))
    .optional()
    .describe('Comma-separated'),
  sort_by: z.enum(['created', 'updated', 'name']).default('created'),
  sort_order: z.enum(['asc', 'desc']).default('desc'),
});

export const AssessIntentBody = z
  .strictObject({
    intent: intent.describe('10 to 2000 characters'),
    timeout: z.number().int().min(1000).max(30_000).default(10_000).describe('Milliseconds, 1000 to 30000'),
  })
  .meta({ id: 'AssessIntentRequest' });

export const PlanPreset = z.enum(['quick', 'standard', 'thorough', 'comprehensive']);

export const PlanBody = z
  .strictObject({
    intent: intent.describe('10 to 2000 characters'),
    name: name.optional(),
    max_credits_per_execution: z.number().positive().max(10_000).optional(),
    planning_budget: z.number().positive().max(10_000).optional().describe('Wins over max_credits_per_execution'),
    quality_mode: z.enum(['quality_first', 'balanced']).default('quality_first'),
    skip_entity_discovery: z.boolean().default(false),
    preset: PlanPreset.optional().describe('quick ~10, standard ~30, thorough ~50, comprehensive ~100 credits'),
  })
  .meta({ id: 'PlanRequest' });
