import { sqliteTable, text, integer, real, index, uniqueIndex } from 'drizzle-orm/sqlite-core';

/**
 * One row per workflow. JSON columns hold the validated request parts as given, so a
 * workflow re-reads exactly what its creator asked for. `next_run_at` (ISO text, which sorts
 * as time) is the scheduler's claim slot: an engine claims a run by moving it forward with a
 * compare-and-set, so two engines on one file never run the same slot.
 */
export const workflows = sqliteTable(
  'workflows',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    mode: text('mode', { enum: ['simple', 'multi_step', 'ai_planned'] }).notNull(),
    workflowType: text('workflow_type', { enum: ['search', 'crawl'] }),
    operationConfig: text('operation_config', { mode: 'json' }).$type<Record<string, unknown>>(),
    steps: text('steps', { mode: 'json' }).$type<unknown[]>(),
    intent: text('intent'),
    maxCreditsPerExecution: real('max_credits_per_execution'),
    plan: text('plan', { mode: 'json' }).$type<Record<string, unknown>>(),
    stopCondition: text('stop_condition', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    maxExecutions: integer('max_executions'),
    notificationConfig: text('notification_config', { mode: 'json' }).$type<Record<string, unknown>>(),
    sessionId: text('session_id'),
    tags: text('tags', { mode: 'json' }).$type<string[]>().notNull(),
    interval: text('interval'),
    intervalMinutes: integer('interval_minutes'),
    cronExpression: text('cron_expression'),
    scheduledFor: text('scheduled_for'),
    anchorMinute: integer('anchor_minute'),
    timezone: text('timezone').notNull(),
    status: text('status', {
      enum: ['active', 'paused', 'completed', 'failed', 'stopped', 'planning', 'plan_failed', 'archived'],
    }).notNull(),
    statusReason: text('status_reason'),
    executionCount: integer('execution_count').notNull().default(0),
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    nextRunAt: text('next_run_at'),
    lastRunAt: text('last_run_at'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [index('workflows_user').on(t.userId, t.createdAt), index('workflows_due').on(t.status, t.nextRunAt)],
);

export const workflowExecutions = sqliteTable(
  'workflow_executions',
  {
    id: text('id').primaryKey(),
    workflowId: text('workflow_id').notNull(),
    userId: text('user_id').notNull(),
    seq: integer('seq').notNull(),
    trigger: text('trigger', { enum: ['manual', 'schedule'] }).notNull(),
    /** The schedule slot a scheduled run was claimed for; unique so a slot can never run twice. */
    slot: text('slot'),
    /**
     * `running` from the moment an execution holds its reservation (and its slot) until it is recorded;
     * a running row whose process died is recorded as interrupted by the next engine that looks. Readers
     * see only completed and failed executions.
     */
    status: text('status', { enum: ['running', 'completed', 'failed'] }).notNull(),
    conditionMet: integer('condition_met', { mode: 'boolean' }).notNull().default(false),
    /** The whole execution body as the API returns it (credits, result_changes, filter, results). */
    body: text('body', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    startedAt: text('started_at').notNull(),
    finishedAt: text('finished_at').notNull(),
  },
  (t) => [
    uniqueIndex('workflow_executions_seq').on(t.workflowId, t.seq),
    uniqueIndex('workflow_executions_slot').on(t.workflowId, t.slot),
  ],
);

/** Asynchronous plan requests (POST /v1/workflows/plan/async). */
export const workflowPlanJobs = sqliteTable(
  'workflow_plan_jobs',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    status: text('status', { enum: ['running', 'completed', 'failed'] }).notNull(),
    request: text('request', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    result: text('result', { mode: 'json' }).$type<Record<string, unknown>>(),
    error: text('error', { mode: 'json' }).$type<Record<string, unknown>>(),
    createdAt: text('created_at').notNull(),
    completedAt: text('completed_at'),
  },
  (t) => [index('workflow_plan_jobs_user').on(t.userId)],
);
