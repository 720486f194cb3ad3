import { and, asc, desc, eq, inArray, isNotNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type {
  ClaimedSlot,
  ExecutionRecord,
  NewExecution,
  PlanJobRecord,
  SchedulesPort,
  WorkflowListFilter,
  WorkflowRecord,
  WorkflowsPort,
} from '../ports/workflows.js';
import type { PgExecutor } from './executor.js';
import { workflowExecutions, workflowPlanJobs, workflows } from './tables/workflows.js';

/** Readers see recorded executions, not those still running. */
const RECORDED = ['completed', 'failed'] as const;

/** Workflows, executions and plan jobs on PostgreSQL; tags are a jsonb array. */
export class PgWorkflows implements WorkflowsPort {
  constructor(private readonly ex: PgExecutor) {}

  private get db() {
    return this.ex.db;
  }

  async insert(w: WorkflowRecord): Promise<void> {
    await this.db.insert(workflows).values(w);
  }

  async get(id: string): Promise<WorkflowRecord | undefined> {
    const [row] = await this.db.select().from(workflows).where(eq(workflows.id, id));
    return row;
  }

  async list(f: WorkflowListFilter): Promise<{ rows: WorkflowRecord[]; total: number }> {
    const owned = eq(workflows.userId, f.userId);
    const shared = f.sharedIds.length > 0 ? inArray(workflows.id, [...f.sharedIds]) : sql`false`;
    const filters: (SQL | undefined)[] = [f.scope === 'owned' ? owned : f.scope === 'shared' ? shared : or(owned, shared)];
    filters.push(f.status ? eq(workflows.status, f.status) : sql`${workflows.status} <> 'archived'`);
    if (f.search) {
      const pattern = `%${f.search.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
      filters.push(or(sql`${workflows.name} ilike ${pattern}`, sql`coalesce(${workflows.description}, '') ilike ${pattern}`, sql`coalesce(${workflows.intent}, '') ilike ${pattern}`));
    }
    for (const tag of f.tags ?? []) filters.push(sql`exists (select 1 from jsonb_array_elements_text(${workflows.tags}) t where lower(t) = lower(${tag}))`);
    const where = and(...filters);
    const column = { created: workflows.createdAt, updated: workflows.updatedAt, name: workflows.name }[f.sortBy];
    const order = f.sortOrder === 'asc' ? asc(column) : desc(column);
    const rows = await this.db.select().from(workflows).where(where).orderBy(order, asc(workflows.id)).limit(f.limit).offset(f.offset);
    const [count] = await this.db.select({ n: sql<number>`count(*)::int` }).from(workflows).where(where);
    return { rows, total: count!.n };
  }

  async update(id: string, fields: Partial<Omit<WorkflowRecord, 'id'>>): Promise<void> {
    await this.db.update(workflows).set(fields).where(eq(workflows.id, id));
  }

  delete(id: string): Promise<void> {
    return this.ex.atomically(async () => {
      await this.db.delete(workflowExecutions).where(eq(workflowExecutions.workflowId, id));
      await this.db.delete(workflows).where(eq(workflows.id, id));
    });
  }

  appendExecution(e: NewExecution): Promise<number> {
    // Many writers: the workflow's row lock serialises appends to one workflow, so max + 1 under it is
    // unique; (workflow_id, seq) is unique besides.
    return this.ex.atomically(async () => {
      await this.db.select({ id: workflows.id }).from(workflows).where(eq(workflows.id, e.workflowId)).for('update');
      const [last] = await this.db.select({ n: sql<number>`coalesce(max(${workflowExecutions.seq}), 0)::int` }).from(workflowExecutions).where(eq(workflowExecutions.workflowId, e.workflowId));
      const seq = (last?.n ?? 0) + 1;
      await this.db.insert(workflowExecutions).values({ ...e, seq });
      return seq;
    });
  }

  async recordExecution(id: string, outcome: Pick<ExecutionRecord, 'status' | 'conditionMet' | 'body' | 'finishedAt'>, onlyIfRunning: boolean): Promise<boolean> {
    const written = await this.db
      .update(workflowExecutions)
      .set(outcome)
      .where(and(eq(workflowExecutions.id, id), onlyIfRunning ? eq(workflowExecutions.status, 'running') : undefined));
    return (written.rowCount ?? 0) > 0;
  }

  async setExecutionBody(id: string, body: Record<string, unknown>): Promise<void> {
    await this.db.update(workflowExecutions).set({ body }).where(eq(workflowExecutions.id, id));
  }

  runningExecutions(): Promise<ExecutionRecord[]> {
    return this.db.select().from(workflowExecutions).where(eq(workflowExecutions.status, 'running'));
  }

  async markInterrupted(id: string): Promise<boolean> {
    const written = await this.db.update(workflowExecutions).set({ status: 'failed' }).where(and(eq(workflowExecutions.id, id), eq(workflowExecutions.status, 'running')));
    return (written.rowCount ?? 0) > 0;
  }

  async recordedExecutions(workflowId: string, page: { limit: number; offset: number }): Promise<{ rows: ExecutionRecord[]; total: number }> {
    const where = and(eq(workflowExecutions.workflowId, workflowId), inArray(workflowExecutions.status, [...RECORDED]));
    const rows = await this.db.select().from(workflowExecutions).where(where).orderBy(desc(workflowExecutions.seq)).limit(page.limit).offset(page.offset);
    const [count] = await this.db.select({ n: sql<number>`count(*)::int` }).from(workflowExecutions).where(where);
    return { rows, total: count!.n };
  }

  async lastCompleted(workflowId: string): Promise<Pick<ExecutionRecord, 'id' | 'body'> | undefined> {
    const [row] = await this.db
      .select({ id: workflowExecutions.id, body: workflowExecutions.body })
      .from(workflowExecutions)
      .where(and(eq(workflowExecutions.workflowId, workflowId), eq(workflowExecutions.status, 'completed')))
      .orderBy(desc(workflowExecutions.seq))
      .limit(1);
    return row;
  }

  async insertPlanJob(job: PlanJobRecord): Promise<void> {
    await this.db.insert(workflowPlanJobs).values(job);
  }

  async getPlanJob(id: string): Promise<PlanJobRecord | undefined> {
    const [row] = await this.db.select().from(workflowPlanJobs).where(eq(workflowPlanJobs.id, id));
    return row;
  }

  async finishPlanJob(id: string, outcome: Pick<PlanJobRecord, 'status' | 'result' | 'error' | 'completedAt'>): Promise<void> {
    await this.db.update(workflowPlanJobs).set(outcome).where(eq(workflowPlanJobs.id, id));
  }
}

/**
 * Schedule slots on PostgreSQL: each (workflow, slot) is claimed once however many servers tick.
 * `FOR UPDATE SKIP LOCKED` takes due workflows no other server is claiming right now (theirs are
 * skipped, never waited for), and the slot moves forward under that row lock in the same
 * transaction. A row another server moved after this one's snapshot is re-checked against the
 * WHERE clause when locked (READ COMMITTED), so a slot already moved is not claimed again.
 */
export class PgSchedules implements SchedulesPort {
  constructor(private readonly ex: PgExecutor) {}

  claimDue(dueBy: string, limit: number, following: (w: WorkflowRecord, slot: string) => string | null): Promise<{ claimed: ClaimedSlot[]; read: number }> {
    return this.ex.atomically(async () => {
      const due = await this.ex.db
        .select()
        .from(workflows)
        .where(and(eq(workflows.status, 'active'), isNotNull(workflows.nextRunAt), lte(workflows.nextRunAt, dueBy)))
        .orderBy(asc(workflows.nextRunAt))
        .limit(limit)
        .for('update', { skipLocked: true });
      const claimed: ClaimedSlot[] = [];
      for (const row of due) {
        const slot = row.nextRunAt!;
        const next = following(row, slot);
        await this.ex.db.update(workflows).set({ nextRunAt: next }).where(eq(workflows.id, row.id));
        claimed.push({ workflow: { ...row, nextRunAt: next }, slot });
      }
      return { claimed, read: due.length };
    });
  }

  async dueCount(now: string): Promise<number> {
    const [count] = await this.ex.db
      .select({ n: sql<number>`count(*)::int` })
      .from(workflows)
      .where(and(eq(workflows.status, 'active'), isNotNull(workflows.nextRunAt), lte(workflows.nextRunAt, now)));
    return count!.n;
  }
}
