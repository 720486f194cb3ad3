import type Database from 'better-sqlite3';
import { and, asc, desc, eq, inArray, isNotNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from './open.js';
import type {
  ClaimedSlot,
  ExecutionRecord,
  NewExecution,
  PlanJobRecord,
  WorkflowListFilter,
  WorkflowRecord,
} from '../ports/workflows.js';
import { workflowExecutions, workflowPlanJobs, workflows } from './tables/workflows.js';

/** Readers see recorded executions, not those still running. */
const RECORDED = ['completed', 'failed'] as const;

/** Workflows, executions and plan jobs: today's drizzle statements, `json_each` for tags. */
export class SqliteWorkflows {
  constructor(
    private readonly sqlite: Database.Database,
    private readonly db: Db,
  ) {}

  insert(w: WorkflowRecord): void {
    this.db.insert(workflows).values(w).run();
  }

  get(id: string): WorkflowRecord | undefined {
    return this.db.select().from(workflows).where(eq(workflows.id, id)).get();
  }

  list(f: WorkflowListFilter): { rows: WorkflowRecord[]; total: number } {
    const owned = eq(workflows.userId, f.userId);
    const shared = inArray(workflows.id, [...f.sharedIds]);
    const filters: (SQL | undefined)[] = [f.scope === 'owned' ? owned : f.scope === 'shared' ? shared : or(owned, shared)];
    if (f.status) filters.push(eq(workflows.status, f.status));
    else filters.push(sql`${workflows.status} != 'archived'`);
    if (f.search) {
      const pattern = `%${f.search.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
      filters.push(or(sql`${workflows.name} like ${pattern} escape '\\'`, sql`coalesce(${workflows.description}, '') like ${pattern} escape '\\'`, sql`coalesce(${workflows.intent}, '') like ${pattern} escape '\\'`));
    }
    for (const tag of f.tags ?? []) filters.push(sql`exists (select 1 from json_each(${workflows.tags}) where lower(value) = lower(${tag}))`);
    const where = and(...filters);
    const column = { created: workflows.createdAt, updated: workflows.updatedAt, name: workflows.name }[f.sortBy];
    const order = f.sortOrder === 'asc' ? asc(column) : desc(column);
    const rows = this.db.select().from(workflows).where(where).orderBy(order, asc(workflows.id)).limit(f.limit).offset(f.offset).all();
    const total = this.db.select({ n: sql<number>`count(*)` }).from(workflows).where(where).get()!.n;
    return { rows, total };
  }

  update(id: string, fields: Partial<Omit<WorkflowRecord, 'id'>>): void {
    this.db.update(workflows).set(fields).where(eq(workflows.id, id)).run();
  }

  delete(id: string): void {
    this.sqlite
      .transaction(() => {
        this.db.delete(workflowExecutions).where(eq(workflowExecutions.workflowId, id)).run();
        this.db.delete(workflows).where(eq(workflows.id, id)).run();
      })
      .immediate();
  }

  appendExecution(e: NewExecution): number {
    // max + 1 and the insert in one write transaction: SQLite has one writer, and (workflow_id, seq) is unique besides.
    return this.sqlite
      .transaction(() => {
        const seq = (this.db.select({ n: sql<number>`coalesce(max(${workflowExecutions.seq}), 0)` }).from(workflowExecutions).where(eq(workflowExecutions.workflowId, e.workflowId)).get()?.n ?? 0) + 1;
        this.db.insert(workflowExecutions).values({ ...e, seq }).run();
        return seq;
      })
      .immediate();
  }

  recordExecution(id: string, outcome: Pick<ExecutionRecord, 'status' | 'conditionMet' | 'body' | 'finishedAt'>, onlyIfRunning: boolean): boolean {
    return this.db
      .update(workflowExecutions)
      .set(outcome)
      .where(and(eq(workflowExecutions.id, id), onlyIfRunning ? eq(workflowExecutions.status, 'running') : undefined))
      .run().changes > 0;
  }

  setExecutionBody(id: string, body: Record<string, unknown>): void {
    this.db.update(workflowExecutions).set({ body }).where(eq(workflowExecutions.id, id)).run();
  }

  runningExecutions(): ExecutionRecord[] {
    return this.db.select().from(workflowExecutions).where(eq(workflowExecutions.status, 'running')).all();
  }

  markInterrupted(id: string): boolean {
    return this.db
      .update(workflowExecutions)
      .set({ status: 'failed' })
      .where(and(eq(workflowExecutions.id, id), eq(workflowExecutions.status, 'running')))
      .run().changes > 0;
  }

  recordedExecutions(workflowId: string, page: { limit: number; offset: number }): { rows: ExecutionRecord[]; total: number } {
    const where = and(eq(workflowExecutions.workflowId, workflowId), inArray(workflowExecutions.status, [...RECORDED]));
    const rows = this.db.select().from(workflowExecutions).where(where).orderBy(desc(workflowExecutions.seq)).limit(page.limit).offset(page.offset).all();
    const total = this.db.select({ n: sql<number>`count(*)` }).from(workflowExecutions).where(where).get()!.n;
    return { rows, total };
  }

  lastCompleted(workflowId: string): Pick<ExecutionRecord, 'id' | 'body'> | undefined {
    return this.db
      .select({ id: workflowExecutions.id, body: workflowExecutions.body })
      .from(workflowExecutions)
      .where(and(eq(workflowExecutions.workflowId, workflowId), eq(workflowExecutions.status, 'completed')))
      .orderBy(desc(workflowExecutions.seq))
      .limit(1)
      .get();
  }

  insertPlanJob(job: PlanJobRecord): void {
    this.db.insert(workflowPlanJobs).values(job).run();
  }

  getPlanJob(id: string): PlanJobRecord | undefined {
    return this.db.select().from(workflowPlanJobs).where(eq(workflowPlanJobs.id, id)).get();
  }

  finishPlanJob(id: string, outcome: Pick<PlanJobRecord, 'status' | 'result' | 'error' | 'completedAt'>): void {
    this.db.update(workflowPlanJobs).set(outcome).where(eq(workflowPlanJobs.id, id)).run();
  }
}

/** The scheduler's slot claims: a compare-and-set on `next_run_at` per due workflow. */
export class SqliteSchedules {
  constructor(private readonly db: Db) {}

  claimDue(dueBy: string, limit: number, following: (w: WorkflowRecord, slot: string) => string | null): { claimed: ClaimedSlot[]; read: number } {
    const due = this.db
      .select()
      .from(workflows)
      .where(and(eq(workflows.status, 'active'), isNotNull(workflows.nextRunAt), lte(workflows.nextRunAt, dueBy)))
      .orderBy(asc(workflows.nextRunAt))
      .limit(limit)
      .all();
    const claimed: ClaimedSlot[] = [];
    for (const row of due) {
      const slot = row.nextRunAt!;
      const next = following(row, slot);
      const changes = this.db
        .update(workflows)
        .set({ nextRunAt: next })
        .where(and(eq(workflows.id, row.id), eq(workflows.status, 'active'), eq(workflows.nextRunAt, slot)))
        .run().changes;
      if (changes === 1) claimed.push({ workflow: { ...row, nextRunAt: next }, slot });
    }
    return { claimed, read: due.length };
  }

  dueCount(now: string): number {
    return this.db
      .select({ n: sql<number>`count(*)` })
      .from(workflows)
      .where(and(eq(workflows.status, 'active'), isNotNull(workflows.nextRunAt), lte(workflows.nextRunAt, now)))
      .get()!.n;
  }
}
