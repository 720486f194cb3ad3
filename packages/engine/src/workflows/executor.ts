import type { EngineContext } from '../context.js';
import { errors, isWvrError, WvrError } from '../core/errors.js';
import type { CreditsService } from '../credits/service.js';
import type { ModelProvider } from '../ai/provider.js';
import type { NotifyService } from '../notify/service.js';
import { compareResults, fingerprint, urlKey, type ResultChanges, type ResultItem } from './changes.js';
import { classifyResults, monitoringIntent } from './intent-filter.js';
import { evaluateStopCondition, type StopConditionInput } from './stop-conditions.js';
import { executionEstimate, executionPrice, MAX_STEP_SEEDS, ownStepCost, referencedKey, stepQueries, type Step } from './pricing.js';
import { mergeSubResults } from './decompose.js';
import { parseCascade } from './cascade.js';
import type { PatrolSessionContext, SearchedResults, SearchRunConfig, WorkflowOperations, WorkflowSessions } from './step-operations.js';
import type { Principal } from '../accounts/schemas.js';
import type { WorkflowExecution } from './responses.js';
import type { WorkflowRecord } from '../store/ports/workflows.js';
import { nextSlot, scheduleOf } from './schedule.js';
import { ownerGone, ownerId } from '../core/process-owner.js';

export type WorkflowRow = WorkflowRecord;

/** Workflows stop being scheduled after this many failed executions in a row. */
const MAX_CONSECUTIVE_FAILURES = 3;

export interface ExecutorDeps {
  ctx: EngineContext;
  credits: CreditsService;
  operations: WorkflowOperations;
  provider?: ModelProvider | undefined;
  notify?: Pick<NotifyService, 'emit' | 'assertWebhookTarget'> | undefined;
  sessions?: WorkflowSessions | undefined;
  principalOf: (userId: string) => Promise<Principal>;
}

interface Outcome {
  results: ResultItem[];
  steps?: WorkflowExecution['steps'];
  /** Simple search patrols: what the search's generate_summary / generate_suggestions produced. */
  search?: Pick<SearchedResults, 'summary' | 'suggested_queries'>;
  /** Charged by the crawl jobs the patrol started, on top of the execution's own price. */
  crawlCredits: number;
}

/** An execution under way: its running row and the reservation it holds. */
interface Begun {
  id: string;
  seq: number;
  reservationId: string;
}

/** What a running execution row holds until it is recorded: who runs it and whose reservation is open. */
type RunningBody = {
  running: { owner: string; reservation_id: string };
};

/** Runs one patrol of a workflow: operation, change tracking, intent filter, stop condition, persistence. */
export class WorkflowExecutor {
  private readonly owner: string;

  constructor(private readonly deps: ExecutorDeps) {
    this.owner = ownerId(deps.ctx.random);
  }

  price(w: WorkflowRow) {
    return executionPrice(priced(w));
  }

  /** The price plus the most the patrol's crawls can cost. */
  estimate(w: WorkflowRow): number {
    return executionEstimate(priced(w));
  }

  async run(w: WorkflowRow, trigger: 'manual' | 'schedule', slot: string | null): Promise<WorkflowExecution> {
    const { ctx, credits } = this.deps;
    const startedAt = ctx.clock.now().toISOString();
    const price = this.price(w);
    const budget = w.mode === 'ai_planned' ? Math.floor(w.maxCreditsPerExecution ?? 0) : price.credits;
    if (trigger === 'manual') {
      // A caller asking now gets the 402 up front when the patrol's crawls could not be paid.
      const estimate = this.estimate(w);
      const { would_succeed, credits_balance } = await credits.canAfford(w.userId, estimate);
      if (!would_succeed) throw errors.insufficientCredits(estimate, credits_balance, { details: { operation: 'workflow_execution', workflow_id: w.id } });
    }
    let begun: Begun;
    try {
      begun = await this.begin(w, trigger, slot, startedAt, Math.min(budget, price.credits));
    } catch (error) {
      // A caller at the API gets the 402; a scheduled patrol records why it could not run.
      if (trigger === 'manual' || !isWvrError(error)) throw error;
      return this.record(w, trigger, slot, startedAt, { failure: asFailure(error), creditsConsumed: 0, price });
    }
    const session = await this.beginSession(w);
    let outcome: Outcome;
    try {
      outcome = await this.operate(w, begun.reservationId, session.search);
    } catch (error) {
      if (session.operationId) await this.deps.sessions!.finishOperation(session.operationId, { status: 'failed' });
      await this.giveBack(w, begun.reservationId, 'failed');
      return this.record(w, trigger, slot, startedAt, { failure: asFailure(error), creditsConsumed: 0, price }, begun);
    }
    const info = await credits.commit(begun.reservationId, price);
    if (session.operationId) {
      const documents = outcome.results.map((r) => ({ url: r.url, title: r.title, text: r.text ?? r.description }));
      await this.deps.sessions!.finishOperation(session.operationId, { status: 'completed', documents, credits: info.consumed + outcome.crawlCredits });
    }
    return this.record(w, trigger, slot, startedAt, { outcome, session, creditsConsumed: info.consumed + outcome.crawlCredits, price }, begun);
  }

  /**
   * The reservation and a `running` execution row (its seq, and its slot for a scheduled run) in one
   * transaction: from here on a crash leaves a row that says whose reservation is open, never an orphan.
   */
  private begin(w: WorkflowRow, trigger: 'manual' | 'schedule', slot: string | null, startedAt: string, amount: number): Promise<Begun> {
    const { ctx, credits } = this.deps;
    return ctx.store.atomically(async (tx) => {
      const reservation = await credits.reserve(w.userId, amount, 'workflow_execution');
      const id = ctx.random.uuid();
      const running: RunningBody = { running: { owner: this.owner, reservation_id: reservation.id } };
      const seq = await tx.workflows.appendExecution({ id, workflowId: w.id, userId: w.userId, trigger, slot, status: 'running', conditionMet: false, body: running, startedAt, finishedAt: startedAt });
      return { id, seq, reservationId: reservation.id };
    });
  }

  /** A failed or interrupted execution costs nothing: its reservation is released and what its steps had used is refunded. */
  private giveBack(w: Pick<WorkflowRow, 'id' | 'userId'>, reservationId: string, why: 'failed' | 'interrupted'): Promise<void> {
    const { ctx, credits } = this.deps;
    return ctx.store.atomically(async () => {
      const held = await credits.reservation(reservationId);
      if (held.status !== 'open') return;
      await credits.release(reservationId);
      if (held.used > 0) await credits.refund(w.userId, held.used, `workflow ${w.id} execution ${why}`);
    });
  }

  /**
   * Executions whose process died mid-run (kill -9, a crash) are recorded as failed with
   * `execution_interrupted`, once, by whichever engine looks first: their reservation is released and
   * refunded, their slot keeps its one execution, and the failure webhook goes out. The crawls such an
   * execution started are jobs of their own: they resume and settle their own reservations.
   */
  async recoverInterrupted(): Promise<number> {
    const { ctx } = this.deps;
    const rows = await ctx.store.workflows.runningExecutions();
    let recovered = 0;
    for (const row of rows) {
      const running = (row.body as Partial<RunningBody>).running;
      if (!running || !ownerGone(running.owner)) continue;
      const w = await ctx.store.workflows.get(row.workflowId);
      const claimed = await ctx.store.atomically(async (tx) => {
        const changed = await tx.workflows.markInterrupted(row.id);
        if (changed) await this.giveBack({ id: row.workflowId, userId: row.userId }, running.reservation_id, 'interrupted');
        return changed;
      });
      if (!claimed) continue;
      recovered++;
      if (!w) continue;
      const failure = { code: 'execution_interrupted', message: 'The process running this execution stopped before it finished; nothing was charged for it.' };
      await this.record(w, row.trigger, row.slot, row.startedAt, { failure, creditsConsumed: 0, price: this.price(w) }, { id: row.id, seq: row.seq, recovered: true });
    }
    return recovered;
  }

  private async operate(w: WorkflowRow, reservationId: string, session: PatrolSessionContext | undefined): Promise<Outcome> {
    const use = async (amount: number) => amount === 0 || this.deps.credits.use(reservationId, amount);
    if (w.mode === 'simple') {
      if (!(await use(this.price(w).credits))) throw unavailable('budget', 'the execution price exceeds its reservation');
      const config = w.operationConfig ?? {};
      if (w.workflowType === 'crawl') {
        const { urls, max_pages, ...rest } = config as { urls?: string[]; max_pages?: number };
        const crawled = await this.crawl(w.userId, urls ?? [], max_pages ?? 10, rest, undefined);
        return { results: crawled.pages, crawlCredits: crawled.credits };
      }
      // Validated against the search request schema when the workflow was created or patched.
      const { results, summary, suggested_queries } = await this.search(w.userId, config as SearchRunConfig, session);
      return { results, search: { summary, suggested_queries }, crawlCredits: 0 };
    }
    const budget = w.mode === 'ai_planned' ? Math.floor(w.maxCreditsPerExecution ?? 0) : undefined;
    return this.pipeline(w, stepsOf(w) ?? [], use, budget, session);
  }

  /**
   * Steps run in dependency order. A step whose cascade_condition fails, whose dependency was
   * skipped, or that no longer fits the reserved budget is skipped, never overdrawn. The
   * execution's results are the outputs of the steps nothing depends on.
   */
  private async pipeline(
    w: WorkflowRow,
    steps: Step[],
    use: (n: number) => Promise<boolean>,
    budget: number | undefined,
    session: PatrolSessionContext | undefined,
  ): Promise<Outcome> {
    const outputs = new Map<string, ResultItem[] | null>();
    const runs: NonNullable<WorkflowExecution['steps']> = [];
    let spent = 0;
    let crawlCredits = 0;
    for (const step of topological(steps)) {
      const deps = step.depends_on ?? [];
      const input = deps.map((d) => outputs.get(d));
      const skip = (reason: string) => {
        outputs.set(step.id, null);
        runs.push({ id: step.id, type: step.type, status: 'skipped', result_count: 0, credits: 0, reason });
      };
      if (input.some((o) => o === null)) {
        skip('a dependency was skipped');
        continue;
      }
      if (step.cascade_condition && !cascadeHolds(step.cascade_condition, steps, deps, outputs)) {
        skip(`cascade_condition "${step.cascade_condition}" does not hold`);
        continue;
      }
      // Under a budget a crawl may spend only what is left of it, through its own budget_config.
      const crawlBudget = budget === undefined ? undefined : budget - spent - crawlCredits;
      const cost = ownStepCost(step);
      if (!(await use(cost)) || (step.type === 'crawl' && crawlBudget !== undefined && crawlBudget < 1)) {
        skip('budget_exhausted: the step would spend past max_credits_per_execution');
        continue;
      }
      spent += cost;
      const upstream = input.flat().filter((r): r is ResultItem => r !== undefined && r !== null);
      let out: ResultItem[];
      let stepCredits = cost;
      let subQueries: string[] | undefined;
      if (step.type === 'search') {
        const queries = stepQueries(step);
        const runs = [];
        for (const query of queries) runs.push({ query, results: (await this.search(w.userId, { query, max_results: step.config.max_results, generate_summary: false }, session)).results });
        // Decomposed: every sub-query's results, merged one per URL, each naming the sub-queries that found it.
        if (step.config.query_decomposition) [out, subQueries] = [mergeSubResults(runs, urlKey), queries];
        else out = runs[0]!.results;
      }
      else if (step.type === 'crawl') {
        const urls = step.config.urls.flatMap((u) => resolveReference(u, steps, outputs));
        if (urls.length === 0) {
          skip('no URLs: the referenced steps produced none');
          continue;
        }
        const { extraction_schema, render, sitemap } = step.config;
        const config = { ...(extraction_schema ? { extraction_schema } : {}), ...(render ? { render } : {}), ...(sitemap ? { sitemap } : {}) };
        const crawled = await this.crawl(w.userId, urls.slice(0, MAX_STEP_SEEDS), step.config.max_pages, config, crawlBudget);
        out = crawled.pages;
        stepCredits = crawled.credits;
        crawlCredits += crawled.credits;
      } else out = dedupe(upstream);
      outputs.set(step.id, out);
      runs.push({ id: step.id, type: step.type, status: 'completed', result_count: out.length, credits: stepCredits, ...(subQueries ? { sub_queries: subQueries } : {}) });
    }
    const consumed = new Set(steps.flatMap((s) => s.depends_on ?? []));
    const terminal = steps.filter((s) => !consumed.has(s.id)).flatMap((s) => outputs.get(s.id) ?? []);
    return { results: dedupe(terminal), steps: runs, crawlCredits };
  }

  private async search(userId: string, config: SearchRunConfig, session: PatrolSessionContext | undefined): Promise<SearchedResults> {
    const search = this.deps.operations.search;
    if (!search) throw unavailable('search', 'the search capability is not available in this engine');
    return search(userId, config, session);
  }

  private async crawl(userId: string, urls: string[], maxPages: number, config: Record<string, unknown>, maxCredits: number | undefined): Promise<{ pages: ResultItem[]; credits: number }> {
    const crawl = this.deps.operations.crawl;
    if (!crawl) throw unavailable('crawl', 'the crawl capability is not available in this engine');
    const crawled = await crawl(userId, { urls, max_pages: maxPages, config, ...(maxCredits === undefined ? {} : { max_credits: maxCredits }) });
    return { pages: crawled.pages.map((p) => ({ ...p, fingerprint: fingerprint(p.text) })), credits: crawled.credits };
  }

  private async record(
    w: WorkflowRow,
    trigger: 'manual' | 'schedule',
    slot: string | null,
    startedAt: string,
    r: { outcome?: Outcome; session?: SessionUse; failure?: { code: string; message: string }; creditsConsumed: number; price: ReturnType<typeof executionPrice> },
    begun?: Pick<Begun, 'id' | 'seq'> & { recovered?: boolean },
  ): Promise<WorkflowExecution> {
    const { ctx } = this.deps;
    const previous = await this.previousCompleted(w.id);
    let changes: ResultChanges | null = null;
    let filter: WorkflowExecution['intent_relevance_filter'] = null;
    let stop: WorkflowExecution['stop_evaluation'] = null;
    if (r.outcome) {
      const pages = w.workflowType === 'crawl' || (stepsOf(w) ?? []).some((s) => s.type === 'crawl');
      changes = compareResults(previous, r.outcome.results, { pages });
      const seen = r.session?.seenUrls;
      if (seen) changes.first_seen_count = r.outcome.results.filter((x) => !seen.has(x.url)).length;
      const intent = monitoringIntent({
        intent: w.intent,
        description: w.description,
        operationQuery: typeof w.operationConfig?.query === 'string' ? w.operationConfig.query : null,
        name: w.name,
      });
      filter = classifyResults(intent, r.outcome.results, changes);
      stop = await evaluateStopCondition(stopOf(w), { results: r.outcome.results, changes, intent: intent.text }, this.deps.provider);
    }
    const finishedAt = ctx.clock.now().toISOString();
    const balanceAfter = await this.deps.credits.balance(w.userId);
    const execution: WorkflowExecution = {
      id: begun?.id ?? ctx.random.uuid(),
      workflow_id: w.id,
      seq: begun?.seq ?? 0,
      trigger,
      slot,
      status: r.outcome ? 'completed' : 'failed',
      started_at: startedAt,
      finished_at: finishedAt,
      credits: { consumed: r.creditsConsumed, balance_after: balanceAfter, pricing_tier: r.price.pricing_tier, advanced_features: r.price.advanced_features },
      condition_met: stop?.condition_met ?? false,
      stop_evaluation: stop,
      result_count: r.outcome?.results.length ?? 0,
      result_changes: changes,
      intent_relevance_filter: filter,
      ...(r.outcome?.steps ? { steps: r.outcome.steps } : {}),
      results: r.outcome?.results ?? [],
      ...(r.outcome?.search ? { summary: r.outcome.search.summary, suggested_queries: r.outcome.search.suggested_queries } : {}),
      ...(r.failure ? { error: r.failure } : {}),
      notification: { suppressed: filter?.signal_suppressed ?? false, events: [] },
      ...(w.sessionId ? { session: { id: w.sessionId, recorded: r.session?.operationId !== undefined, ...(r.session?.problem ? { problem: r.session.problem } : {}) } } : {}),
    };
    const nextStatus = await ctx.store.atomically(async (tx) => {
      const fresh = await tx.workflows.get(w.id);
      if (begun) {
        // The running row becomes the record; a row an engine already recorded as interrupted (it took this
        // process for dead) stays as it was, and nothing is announced twice.
        const settled = { status: execution.status, conditionMet: execution.condition_met, body: execution, finishedAt };
        if (!(await tx.workflows.recordExecution(begun.id, settled, !begun.recovered))) return undefined;
      } else {
        // The seq is assigned with the insert; the body says it once the row holds it.
        execution.seq = await tx.workflows.appendExecution({ id: execution.id, workflowId: w.id, userId: w.userId, trigger, slot, status: execution.status, conditionMet: execution.condition_met, body: execution, startedAt, finishedAt });
        await tx.workflows.setExecutionBody(execution.id, execution);
      }
      if (!fresh) return null;
      const count = fresh.executionCount + (r.outcome ? 1 : 0);
      const failures = r.outcome ? 0 : fresh.consecutiveFailures + 1;
      const onceDone = trigger === 'schedule' && fresh.scheduledFor !== null && !fresh.cronExpression && fresh.intervalMinutes === null && !fresh.interval;
      let status = fresh.status;
      let reason = fresh.statusReason;
      if (fresh.status === 'active' || fresh.status === 'paused' || fresh.status === 'failed') {
        if (execution.condition_met) [status, reason] = ['completed', `stop condition met by execution ${execution.id}`];
        else if (fresh.maxExecutions !== null && count >= fresh.maxExecutions) [status, reason] = ['completed', `max_executions (${fresh.maxExecutions}) reached`];
        else if (onceDone) [status, reason] = ['completed', 'the one-time run (scheduled_for) has happened'];
        else if (failures >= MAX_CONSECUTIVE_FAILURES) [status, reason] = ['failed', `${failures} executions in a row failed; last: ${r.failure?.message}`];
        else if (r.outcome && fresh.status === 'failed') [status, reason] = ['active', null];
      }
      const ends = status === 'completed' || status === 'failed';
      // A failed workflow that a manual run revived is scheduled again from now.
      const revived = fresh.status === 'failed' && status === 'active';
      const nextRunAt = ends ? null : revived ? (nextSlot(scheduleOf(fresh), ctx.clock.now(), ctx.clock.now())?.toISOString() ?? null) : undefined;
      await tx.workflows.update(w.id, { executionCount: count, consecutiveFailures: failures, lastRunAt: finishedAt, status, statusReason: reason, updatedAt: finishedAt, ...(nextRunAt === undefined ? {} : { nextRunAt }) });
      return status;
    });
    if (nextStatus === undefined) return execution;
    execution.notification.events = await this.signal(w, execution, nextStatus);
    await ctx.store.workflows.setExecutionBody(execution.id, execution);
    return execution;
  }

  /** Events go out only when the workflow asked for them, and changes only when not suppressed. */
  private async signal(w: WorkflowRow, e: WorkflowExecution, status: string | null): Promise<string[]> {
    const notify = this.deps.notify;
    const target = w.notificationConfig as { webhook_url?: string; email?: boolean } | null;
    if (!notify || !target || (!target.webhook_url && !target.email)) return [];
    const base = { workflow_id: w.id, workflow_name: w.name, execution_id: e.id, seq: e.seq };
    const kinds: [Parameters<NotifyService['emit']>[0]['kind'], Record<string, unknown>][] = [];
    if (e.status === 'failed') kinds.push(['workflow.execution.failed', { ...base, error: e.error }]);
    else {
      kinds.push(['workflow.execution.completed', { ...base, result_count: e.result_count, result_changes: summary(e.result_changes), condition_met: e.condition_met, credits: e.credits }]);
      const changed = (e.result_changes?.net_new_count ?? 0) + (e.result_changes?.changed_urls?.length ?? 0) > 0;
      if (changed && !e.notification.suppressed) kinds.push(['workflow.changes.detected', { ...base, result_changes: e.result_changes, intent_relevance_filter: e.intent_relevance_filter }]);
      if (status === 'completed') kinds.push(['workflow.completed', { ...base, condition_met: e.condition_met, stop_evaluation: e.stop_evaluation }]);
    }
    for (const [kind, data] of kinds) {
      await notify.emit({ userId: w.userId, kind, data, ...(target.webhook_url ? { webhookUrl: target.webhook_url } : {}), ...(target.email ? { email: true as const } : {}) });
    }
    return kinds.map(([kind]) => kind);
  }

  /**
   * A session that can no longer take operations (completed, archived, full, deleted) does not
   * stop the patrol: the execution runs and says why it was not recorded.
   */
  private async beginSession(w: WorkflowRow): Promise<SessionUse> {
    const sessions = this.deps.sessions;
    if (!w.sessionId || !sessions) return {};
    const steps = stepsOf(w) ?? [];
    const kind = w.mode === 'simple' ? (w.workflowType ?? 'search') : steps.some((s) => s.type === 'search') ? 'search' : 'crawl';
    const query = w.mode === 'simple' ? (w.operationConfig?.query as string | undefined) : steps.find((s) => s.type === 'search')?.config.query as string | undefined;
    const urls = w.mode === 'simple' ? (w.operationConfig?.urls as string[] | undefined) : undefined;
    try {
      const begun = await sessions.beginOperation(await this.deps.principalOf(w.userId), w.sessionId, kind, { ...(query ? { query } : {}), ...(urls ? { urls } : {}) });
      // The session's intent shapes every search of the execution, as it does the session's own searches.
      return { operationId: begun.operationId, seenUrls: begun.seenUrls, search: { sessionId: w.sessionId, intentType: begun.context?.intent_type ?? null } };
    } catch (error) {
      return { problem: isWvrError(error) ? error.code : String(error) };
    }
  }

  private async previousCompleted(workflowId: string): Promise<{ id: string; results: ResultItem[] } | null> {
    const row = await this.deps.ctx.store.workflows.lastCompleted(workflowId);
    return row ? { id: row.id, results: (row.body.results as ResultItem[]) ?? [] } : null;
  }
}

interface SessionUse {
  operationId?: string;
  seenUrls?: ReadonlySet<string>;
  /** What the execution's searches take from the session. */
  search?: PatrolSessionContext;
  problem?: string;
}

const priced = (w: WorkflowRow) => ({
  mode: w.mode,
  workflowType: w.workflowType,
  operationConfig: w.operationConfig,
  steps: stepsOf(w),
  naturalLanguageStop: stopOf(w).type === 'natural_language',
});

export const stepsOf = (w: WorkflowRow): Step[] | null =>
  w.mode === 'ai_planned' ? ((w.plan?.recommended_steps as Step[] | undefined) ?? null) : (w.steps as Step[] | null);
const stopOf = (w: WorkflowRow) => w.stopCondition as StopConditionInput;

function summary(c: ResultChanges | null) {
  if (!c) return null;
  const { net_new_urls: _n, page_diffs: _p, ...counts } = c;
  return counts;
}

function unavailable(what: string, message: string): WvrError {
  return new WvrError('upstream_error', message, { code: `workflow_${what}_unavailable` });
}

function asFailure(error: unknown): { code: string; message: string } {
  if (isWvrError(error)) return { code: error.code, message: error.message };
  const code = (error as { code?: unknown }).code;
  return { code: typeof code === 'string' ? code : 'workflow_operation_failed', message: error instanceof Error ? error.message : String(error) };
}

function topological(steps: Step[]): Step[] {
  const byId = new Map(steps.map((s) => [s.id, s]));
  const done = new Set<string>();
  const order: Step[] = [];
  const visit = (s: Step) => {
    if (done.has(s.id)) return;
    done.add(s.id);
    for (const d of s.depends_on ?? []) if (byId.has(d)) visit(byId.get(d)!);
    order.push(s);
  };
  steps.forEach(visit);
  return order;
}

function keyOf(steps: Step[], ref: string): string | undefined {
  return steps.find((s) => s.output_key === ref || s.id === ref)?.id;
}

function cascadeHolds(text: string, steps: Step[], deps: string[], outputs: Map<string, ResultItem[] | null>): boolean {
  const cascade = parseCascade(text);
  if (!cascade) return false;
  const ids = cascade.key === 'any' ? deps : [keyOf(steps, cascade.key)].filter((id): id is string => id !== undefined);
  return cascade.test(ids.reduce((n, id) => n + (outputs.get(id)?.length ?? 0), 0));
}

/** `{{key}}` in a crawl step's urls stands for every URL an earlier step produced. */
function resolveReference(value: string, steps: Step[], outputs: Map<string, ResultItem[] | null>): string[] {
  const ref = referencedKey(value);
  if (ref === undefined) return [value];
  const id = keyOf(steps, ref);
  return (id ? (outputs.get(id) ?? []) : []).map((r) => r.url);
}

function dedupe(items: ResultItem[]): ResultItem[] {
  const seen = new Set<string>();
  return items.filter((r) => {
    const key = urlKey(r.url);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
