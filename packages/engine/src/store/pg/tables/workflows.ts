import { pgTable, text, integer, doublePrecision, boolean, index, uniqueIndex } from 'drizzle-orm/pg-core';
import { json } from './types.js';

// Mirrors store/sqlite workflows tables (parity.test.ts checks tables and columns match).
/**
 * `next_run_at` (ISO text) is the scheduler's claim slot: a server claims a run by moving it
 * forward with a compare-and-set UPDATE; PostgreSQL's row lock makes a concurrent one re-read the
 * moved value and match nothing. `workflow_executions (workflow_id, slot)` is unique as a second guard.
 */
export const workflows = pgTable(
  'workflows',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    mode: text('mode', { enum: ['simple', 'multi_step', 'ai_planned'] }).notNull(),
    workflowType: text('workflow_type', { enum: ['search', 'crawl'] }),
    operationConfig: json<Record<string, unknown>>('operation_config'),
    steps: json<unknown[]>('steps'),
    intent: text('intent'),
    maxCreditsPerExecution: doublePrecision('max_credits_per_execution'),
    plan: json<Record<string, unknown>>('plan'),
    stopCondition: json<Record<string, unknown>>('stop_condition').notNull(),
    maxExecutions: integer('max_executions'),
    notificationConfig: json<Record<string, unknown>>('notification_config'),
    sessionId: text('session_id'),
    tags: json<string[]>('tags').notNull(),
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

export const workflowExecutions = pgTable(
  'workflow_executions',
  {
    id: text('id').primaryKey(),
    workflowId: text('workflow_id').notNull(),
    userId: text('user_id').notNull(),
    seq: integer('seq').notNull(),
    trigger: text('trigger', { enum: ['manual', 'schedule'] }).notNull(),
    slot: text('slot'),
    status: text('status', { enum: ['running', 'completed', 'failed'] }).notNull(),
    conditionMet: boolean('condition_met').notNull().default(false),
    body: json<Record<string, unknown>>('body').notNull(),
    startedAt: text('started_at').notNull(),
    finishedAt: text('finished_at').notNull(),
  },
  (t) => [
    uniqueIndex('workflow_executions_seq').on(t.workflowId, t.seq),
    uniqueIndex('workflow_executions_slot').on(t.workflowId, t.slot),
  ],
);

export const workflowPlanJobs = pgTable(
  'workflow_plan_jobs',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    status: text('status', { enum: ['running', 'completed', 'failed'] }).notNull(),
    request: json<Record<string, unknown>>('request').notNull(),
    result: json<Record<string, unknown>>('result'),
    error: json<Record<string, unknown>>('error'),
    createdAt: text('created_at').notNull(),
    completedAt: text('completed_at'),
  },
  (t) => [index('workflow_plan_jobs_user').on(t.userId)],
);
