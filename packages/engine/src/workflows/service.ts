import type { EngineContext } from '../context.js';
import { errors, isWvrError } from '../core/errors.js';
import { parseInput } from '../core/validate.js';
import { IdParams } from '../core/schemas.js';
import type { Principal } from '../accounts/schemas.js';
import { withoutOwnerFields, type SharingService } from '../accounts/sharing.js';
import type { ShareState } from '../accounts/schemas.js';
import type { RateLimitService } from '../accounts/rate-limits.js';
import { pricing } from '../credits/pricing.js';
import { AssessIntentBody, OperationConfigCheck, PlanBody, WorkflowCreateBody, WorkflowExecuteBody, WorkflowListQuery, WorkflowPatchBody } from './schemas.js';
import { assessIntent, type IntentAssessment } from './assess.js';
import { planWorkflow, presetOf, type WorkflowPlan } from './planner.js';
import { parseCascade } from './cascade.js';
import { firstSlot, scheduleOf } from './schedule.js';
import { cronNeverFiresProblem } from './schedule-rules.js';
import { assertEditable, assertRunnable, assertTransition, SCHEDULED, type Status } from './lifecycle.js';
import { stepsOf, WorkflowExecutor, type ExecutorDeps, type WorkflowRow } from './executor.js';
import { WorkflowScheduler } from './scheduler.js';
import { OneAtATime } from './one-at-a-time.js';
import type { Workflow, WorkflowExecution } from './responses.js';
import type { Step } from './pricing.js';
import type { JobQueue } from '../jobs/queue.js';
import { every, type Loop } from '../core/every.js';

/** How often a working engine looks for executions whose process died. */
const RECOVERY_INTERVAL_MS = 30_000;

/** Asynchronous plans run on the engine's job queue under this kind, so they survive a restart. */
const PLAN_JOB = 'workflow.plan';

/** A scheduled_for this close to now counts as now: clocks of client and server differ a little. */
const SCHEDULED_FOR_GRACE_MS = 60_000;

export interface WorkflowsDeps extends Omit<ExecutorDeps, 'ctx'> {
  sharing: SharingService;
  jobs: Pick<JobQueue, 'register' | 'enqueue' | 'runNow'>;
  rateLimits: RateLimitService;
}

/** `engine.workflows`: scheduled monitoring with change tracking, stop conditions, intent filtering and planning. */
export class WorkflowsService {
  readonly scheduler: WorkflowScheduler;
  /** Executions of one workflow, one at a time in this engine (manual and scheduled alike). */
  private readonly serial = new OneAtATime();
  private readonly executor: WorkflowExecutor;
  private readonly pendingPlans = new Set<Promise<void>>();
  private recovery: Loop | undefined;

  constructor(
    private readonly ctx: EngineContext,
    private readonly deps: WorkflowsDeps,
  ) {
    this.executor = new WorkflowExecutor({ ctx, ...deps });
    // A scheduled patrol queued behind another execution runs on the workflow as that one left it,
    // and not at all when that one ended the workflow (stop condition, max_executions).
    this.scheduler = new WorkflowScheduler(ctx, (claimed, slot) =>
      this.serial.run(claimed.id, async () => {
        const row = await this.row(claimed.id);
        if (!row || row.status !== 'active') return null;
        return (await this.executor.run(row, 'schedule', slot)).id;
      }),
    );
    deps.jobs.register<{ planJobId: string }>(PLAN_JOB, async ({ job }) => this.runPlanJob(job.payload.planJobId), { maxAttempts: 3 });
  }

  async create(principal: Principal, input: unknown) {
    const body = parseInput(WorkflowCreateBody, input);
    const never = body.cron_expression === undefined ? null : cronNeverFiresProblem(body.cron_expression, body.timezone, this.ctx.clock.now());
    if (never) {
      throw errors.validation('cron_expression_never_fires', `Invalid request body: cron_expression ${never}.`, {
        details: { fields: [{ path: 'cron_expression', code: 'cron_expression_never_fires', message: never }] },
        suggestions: ['Pick a day of month that the chosen months have, e.g. "0 0 28 2 *" for 28 February.'],
      });
    }
    // A one-time run in the past would run at once, which is not what a schedule asks for.
    if (body.scheduled_for !== undefined && new Date(body.scheduled_for).getTime() < this.ctx.clock.now().getTime() - SCHEDULED_FOR_GRACE_MS) {
      throw errors.validation('scheduled_for_in_past', `Invalid request body: scheduled_for ${body.scheduled_for} is in the past.`, {
        details: { fields: [{ path: 'scheduled_for', code: 'scheduled_for_in_past', message: 'is in the past' }] },
        suggestions: ['Give a future time, or use POST /v1/workflows/{id}/execute to run now.'],
      });
    }
    this.deps.notify?.assertWebhookTarget(body.notification_config?.webhook_url, 'notification_config.webhook_url');
    if (body.session_id) await this.deps.sessions?.assertUsable(principal, body.session_id);
    this.assertRender(body.workflow_type ?? null, body.operation_config, body.steps);
    for (const [i, step] of (body.steps ?? []).entries()) {
      if (step.cascade_condition && !parseCascade(step.cascade_condition)) {
        throw errors.validation('cascade_condition_invalid', `steps.${i}.cascade_condition must read "<output_key>.count > N", "<output_key>.non_empty" or "any.empty".`, {
          details: { fields: [{ path: `steps.${i}.cascade_condition`, code: 'cascade_condition_invalid', message: 'is not a cascade condition' }] },
        });
      }
    }
    const now = this.ctx.clock.now();
    const plan = body.mode === 'ai_planned' ? this.planForWorkflow(body.intent!, body.name, body.max_credits_per_execution!) : null;
    const row: WorkflowRow = {
      id: this.ctx.random.uuid(),
      userId: principal.userId,
      name: body.name,
      description: body.description ?? null,
      mode: body.mode,
      workflowType: body.workflow_type ?? null,
      operationConfig: body.operation_config ?? null,
      steps: body.steps ?? null,
      intent: body.intent ?? null,
      maxCreditsPerExecution: body.max_credits_per_execution ?? null,
      plan: plan && 'plan' in plan ? plan.plan : null,
      stopCondition: body.stop_condition,
      maxExecutions: body.max_executions ?? null,
      notificationConfig: body.notification_config ?? null,
      sessionId: body.session_id ?? null,
      tags: body.tags ?? [],
      interval: body.interval ?? null,
      intervalMinutes: body.interval_minutes ?? null,
      cronExpression: body.cron_expression ?? null,
      scheduledFor: body.scheduled_for ? new Date(body.scheduled_for).toISOString() : null,
      anchorMinute: body.anchor_minute ?? null,
      timezone: body.timezone,
      status: plan && 'failure' in plan ? 'plan_failed' : 'active',
      statusReason: plan && 'failure' in plan ? plan.failure : null,
      executionCount: 0,
      consecutiveFailures: 0,
      nextRunAt: null,
      lastRunAt: null,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
    row.nextRunAt = row.status === 'active' ? (firstSlot(scheduleOf(row), now)?.toISOString() ?? null) : null;
    const perRun = this.executor.estimate(row);
    const afford = await this.deps.credits.canAfford(principal.userId, perRun);
    const estimate = { credits_per_execution: perRun, ...afford, first_run_at: row.nextRunAt };
    if (body.dry_run) return { dry_run: true as const, workflow: null, estimate };
    await this.ctx.store.workflows.insert(row);
    return { dry_run: false as const, workflow: await this.toWorkflow(row, principal), estimate };
  }

  async list(principal: Principal, query: unknown = {}) {
    const q = parseInput(WorkflowListQuery, query, 'query');
    const sharedIds = q.scope === 'owned' ? [] : await this.deps.sharing.sharedWithMe(principal, 'workflow');
    const { rows, total } = await this.ctx.store.workflows.list({
      userId: principal.userId,
      sharedIds,
      scope: q.scope,
      status: q.status,
      search: q.search,
      tags: q.tags,
      sortBy: q.sort_by,
      sortOrder: q.sort_order,
      limit: q.limit,
      offset: q.offset,
    });
    return { data: await Promise.all(rows.map((r) => this.toWorkflow(r, principal))), total, limit: q.limit, offset: q.offset };
  }

  async get(principal: Principal, id: string) {
    const row = await this.readable(principal, id);
    const { rows: recent } = await this.ctx.store.workflows.recordedExecutions(row.id, { limit: 5, offset: 0 });
    return {
      ...(await this.toWorkflow(row, principal)),
      recent_executions: recent.map((e) => {
        const { results: _r, ...rest } = e.body as WorkflowExecution;
        return rest;
      }),
    };
  }

  async update(principal: Principal, id: string, input: unknown): Promise<Workflow> {
    const body = parseInput(WorkflowPatchBody, input);
    const row = await this.owned(principal, id);
    if (body.session_id) await this.deps.sessions?.assertUsable(principal, body.session_id);
    const { status: target, ...fields } = body;
    if (Object.keys(fields).length > 0) assertEditable(id, row.status);
    if (target) assertTransition(id, row.status, target);
    const type = body.workflow_type ?? row.workflowType;
    if (body.operation_config && row.mode !== 'simple') {
      throw errors.validation('operation_config_not_applicable', `operation_config applies to simple workflows; this one is ${row.mode}.`);
    }
    if (body.workflow_type && body.workflow_type !== row.workflowType && !body.operation_config) {
      throw errors.validation('operation_config_required', 'Changing workflow_type needs a matching operation_config in the same PATCH.');
    }
    if (body.operation_config && type) parseInput(OperationConfigCheck, { workflow_type: type, operation_config: body.operation_config });
    this.assertRender(type, body.operation_config, undefined);
    const now = this.ctx.clock.now();
    const next: WorkflowRow = {
      ...row,
      name: body.name ?? row.name,
      workflowType: type,
      operationConfig: body.operation_config ?? row.operationConfig,
      stopCondition: body.stop_condition ?? row.stopCondition,
      intervalMinutes: body.interval_minutes ?? row.intervalMinutes,
      // interval_minutes is the one schedule field PATCH takes: setting it makes the workflow an interval one.
      ...(body.interval_minutes === undefined ? {} : { cronExpression: null, scheduledFor: null }),
      maxExecutions: body.max_executions === undefined ? row.maxExecutions : body.max_executions,
      sessionId: body.session_id === undefined ? row.sessionId : body.session_id,
      status: target ?? row.status,
      statusReason: target && target !== row.status ? `set by PATCH at ${now.toISOString()}` : row.statusReason,
      consecutiveFailures: target === 'active' ? 0 : row.consecutiveFailures,
      updatedAt: now.toISOString(),
    };
    const rescheduled = (target === 'active' && row.status !== 'active') || body.interval_minutes !== undefined;
    if (!SCHEDULED.includes(next.status)) next.nextRunAt = null;
    else if (rescheduled) next.nextRunAt = firstSlot(scheduleOf({ ...next, scheduledFor: row.executionCount > 0 ? null : next.scheduledFor }), now)?.toISOString() ?? null;
    const { id: _id, ...changed } = next;
    await this.ctx.store.workflows.update(id, changed);
    return this.toWorkflow(next, principal);
  }

  /** `render: always` in a crawl patrol (its operation_config or a crawl step) needs a browser on this engine. */
  private assertRender(type: string | null, operationConfig: Record<string, unknown> | undefined, steps: Step[] | undefined): void {
    const modes = [
      ...(type === 'crawl' && operationConfig ? [operationConfig.render] : []),
      ...(steps ?? []).flatMap((step) => (step.type === 'crawl' ? [step.config.render] : [])),
    ];
    for (const mode of modes) if (mode === 'always') this.deps.operations.assertRender?.('always');
  }

  /** Deletes the workflow and its executions; with the row gone no engine can claim its patrols. */
  async delete(principal: Principal, id: string) {
    await this.owned(principal, id);
    await this.ctx.store.workflows.delete(id);
    return { id, deleted: true as const };
  }

  async execute(principal: Principal, id: string, input: unknown = {}) {
    const body = parseInput(WorkflowExecuteBody, input ?? {});
    const row = await this.owned(principal, id);
    assertRunnable(id, row.status);
    if (body.dry_run) {
      const credits = this.executor.estimate(row);
      return { workflow_id: id, dry_run: true as const, status: row.status, execution: null, estimate: { credits, ...(await this.deps.credits.canAfford(principal.userId, credits)) } };
    }
    // One execution of a workflow at a time: a manual run waits for the running one, then compares with it.
    const execution = await this.serial.run(id, async () => {
      const fresh = await this.owned(principal, id);
      assertRunnable(id, fresh.status);
      return this.executor.run(fresh, 'manual', null);
    });
    return { workflow_id: id, dry_run: false as const, status: (await this.row(id))?.status ?? row.status, execution: withoutPageText(execution) };
  }

  async executions(principal: Principal, id: string, query: unknown = {}) {
    const q = parseInput(WorkflowListQuery.pick({ limit: true, offset: true }), query, 'query');
    await this.readable(principal, id);
    const { rows, total } = await this.ctx.store.workflows.recordedExecutions(id, { limit: q.limit, offset: q.offset });
    return { data: rows.map((r) => withoutPageText(r.body as WorkflowExecution)), total, limit: q.limit, offset: q.offset };
  }

  /** Organization members (and, with public_share, anyone holding the id) may read; only the owner edits or runs. */
  async share(principal: Principal, id: string, input: unknown): Promise<ShareState> {
    const row = await this.owned(principal, id);
    return this.deps.sharing.share(principal, { type: 'workflow', id, ownerUserId: row.userId }, input);
  }

  /** Free; 10 per hour per user. Past the limit it still answers, from the heuristic. */
  async assessIntent(principal: Principal, input: unknown): Promise<IntentAssessment> {
    const body = parseInput(AssessIntentBody, input);
    let rateLimited = false;
    try {
      await this.deps.rateLimits.consume(principal, 'intent_assessment');
    } catch (error) {
      if (!isWvrError(error) || error.type !== 'rate_limit_exceeded') throw error;
      rateLimited = true;
    }
    return assessIntent(body.intent, { provider: this.deps.provider, timeoutMs: body.timeout, rateLimited });
  }

  /** Charged by preset (quick 10, standard 30, thorough 50, comprehensive 100); 402 when short. */
  async plan(principal: Principal, input: unknown): Promise<WorkflowPlan> {
    const body = parseInput(PlanBody, input);
    const price = pricing.planPreview(presetOf(body));
    // Planned before charging, so a budget too small to plan costs nothing.
    const plan = planWorkflow(body, price.credits);
    const charged = await this.deps.credits.charge(principal.userId, price, 'workflow_plan');
    return { ...plan, credits_consumed: charged.consumed };
  }

  async planAsync(principal: Principal, input: unknown) {
    const body = parseInput(PlanBody, input);
    const price = pricing.planPreview(presetOf(body));
    const canPlan = await this.deps.credits.canAfford(principal.userId, price.credits);
    if (!canPlan.would_succeed) throw errors.insufficientCredits(price.credits, canPlan.credits_balance, { details: { operation: 'workflow_plan' } });
    const id = this.ctx.random.uuid();
    await this.ctx.store.atomically(async (tx) => {
      await tx.workflows.insertPlanJob({ id, userId: principal.userId, status: 'running', request: body, result: null, error: null, createdAt: this.ctx.clock.now().toISOString(), completedAt: null });
      await this.deps.jobs.enqueue(PLAN_JOB, { planJobId: id }, { id });
    });
    const accepted = await this.planJob(principal, id);
    // Start at once rather than waiting for the queue's next poll; the claim keeps it single.
    const work = this.deps.jobs.runNow(id).then(() => undefined);
    this.pendingPlans.add(work);
    void work.finally(() => this.pendingPlans.delete(work));
    return accepted;
  }

  async planJob(principal: Principal, id: string) {
    parseInput(IdParams, { id }, 'path');
    const found = await this.ctx.store.workflows.getPlanJob(id);
    const row = found?.userId === principal.userId ? found : undefined;
    if (!row) throw errors.notFound('plan_job', id);
    return { id: row.id, status: row.status, created_at: row.createdAt, completed_at: row.completedAt, result: row.result ?? null, error: (row.error as { code: string; message: string } | null) ?? null };
  }

  /**
   * Records executions whose process died mid-run as interrupted (see WorkflowExecutor.recoverInterrupted):
   * once now, then every `intervalMs` of wall time, for engine.start().
   */
  startRecovery(intervalMs = RECOVERY_INTERVAL_MS): void {
    this.recovery ??= every(intervalMs, () => this.recoverInterrupted());
    void this.recoverInterrupted().catch(() => undefined);
  }

  async stopRecovery(): Promise<void> {
    const loop = this.recovery;
    this.recovery = undefined;
    await loop?.stop();
  }

  /** Executions recorded as interrupted by this call. */
  recoverInterrupted(): Promise<number> {
    return this.executor.recoverInterrupted();
  }

  /** Waits for background planning (close, tests). */
  async settled(): Promise<void> {
    await Promise.all([...this.pendingPlans]);
  }

  /** Idempotent: a job that already ended (a retry after a crash) does nothing, so nothing is charged twice. */
  private async runPlanJob(id: string): Promise<void> {
    const row = await this.ctx.store.workflows.getPlanJob(id);
    if (!row || row.status !== 'running') return;
    let outcome: Parameters<WorkflowsService['finishPlanJob']>[1];
    try {
      outcome = { status: 'completed', result: await this.plan(await this.deps.principalOf(row.userId), row.request) };
    } catch (error) {
      if (!isWvrError(error)) throw error;
      outcome = { status: 'failed', error: { code: error.code, message: error.message } };
    }
    await this.finishPlanJob(id, outcome);
  }

  private finishPlanJob(id: string, r: { status: 'completed' | 'failed'; result?: WorkflowPlan; error?: { code: string; message: string } }): Promise<void> {
    return this.ctx.store.workflows.finishPlanJob(id, { status: r.status, result: r.result ?? null, error: r.error ?? null, completedAt: this.ctx.clock.now().toISOString() });
  }

  /** ai_planned: the plan is built at creation (status planning, then active or plan_failed); creation is not charged. */
  private planForWorkflow(intent: string, name: string, budget: number): { plan: WorkflowPlan } | { failure: string } {
    try {
      return { plan: planWorkflow({ intent, name, max_credits_per_execution: budget, quality_mode: 'quality_first', skip_entity_discovery: false }, 0) };
    } catch (error) {
      if (isWvrError(error)) return { failure: `${error.code}: ${error.message}` };
      throw error;
    }
  }

  private row(id: string): Promise<WorkflowRow | undefined> {
    return this.ctx.store.workflows.get(id);
  }

  private async owned(principal: Principal, id: string): Promise<WorkflowRow> {
    parseInput(IdParams, { id }, 'path');
    const row = await this.row(id);
    if (!row) throw errors.notFound('workflow', id);
    await this.deps.sharing.assertOwner(principal, { type: 'workflow', id, ownerUserId: row.userId });
    return row;
  }

  private async readable(principal: Principal, id: string): Promise<WorkflowRow> {
    parseInput(IdParams, { id }, 'path');
    const row = await this.row(id);
    if (!row) throw errors.notFound('workflow', id);
    await this.deps.sharing.assertCanRead(principal, { type: 'workflow', id, ownerUserId: row.userId });
    return row;
  }

  private async toWorkflow(r: WorkflowRow, principal: Principal): Promise<Workflow> {
    const level = (await this.deps.sharing.accessLevel(principal, { type: 'workflow', id: r.id, ownerUserId: r.userId })) ?? 'public';
    // A public reader sees what public sessions show: not where the owner is notified, nor their session.
    const isPublic = level === 'public';
    return {
      id: r.id,
      name: r.name,
      description: r.description,
      mode: r.mode,
      workflow_type: r.workflowType,
      operation_config: isPublic && r.operationConfig ? withoutOwnerFields(r.operationConfig) : r.operationConfig,
      steps: stepsOf(r),
      intent: r.intent,
      max_credits_per_execution: r.maxCreditsPerExecution,
      stop_condition: r.stopCondition as Workflow['stop_condition'],
      max_executions: r.maxExecutions,
      notification_config: isPublic ? null : (r.notificationConfig as Workflow['notification_config']),
      session_id: isPublic ? null : r.sessionId,
      tags: r.tags,
      interval: r.interval,
      interval_minutes: r.intervalMinutes,
      cron_expression: r.cronExpression,
      scheduled_for: r.scheduledFor,
      anchor_minute: r.anchorMinute,
      timezone: r.timezone,
      status: r.status as Status,
      status_reason: r.statusReason,
      execution_count: r.executionCount,
      next_run_at: r.nextRunAt,
      last_run_at: r.lastRunAt,
      estimated_credits_per_execution: this.executor.estimate(r),
      access_level: level,
      created_at: r.createdAt,
      updated_at: r.updatedAt,
    };
  }
}

/** Stored results keep each crawled page's text for the next diff; answers carry the diffs instead. */
function withoutPageText(e: WorkflowExecution): WorkflowExecution {
  if (!e.results) return e;
  return { ...e, results: e.results.map((r) => Object.fromEntries(Object.entries(r).filter(([key]) => key !== 'text')) as typeof r) };
}
