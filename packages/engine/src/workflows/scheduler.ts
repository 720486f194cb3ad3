import { and, asc, eq, isNotNull, lte } from 'drizzle-orm';
import type { EngineContext } from '../core/context.js';
import { nextSlot, scheduleOf } from './schedule.js';
import { workflows } from './tables.js';
import type { WorkflowRow } from './executor.js';

export interface SchedulerRun {
  workflow_id: string;
  slot: string;
  execution_id: string | null;
  error?: string;
}

/**
 * Claims due workflows from the database and runs them. A claim is a compare-and-set on
 * `next_run_at`: the engine whose UPDATE moves the slot forward owns it, so two engines on one
 * file run each slot once. Catch-up policy: a workflow that missed slots during downtime runs
 * once, and its next slot is the first one after now.
 */
export class WorkflowScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<SchedulerRun[]> | undefined;

  constructor(
    private readonly ctx: EngineContext,
    private readonly runClaimed: (w: WorkflowRow, slot: string) => Promise<string | null>,
    private readonly batchSize = 100,
  ) {}

  /** Runs everything due at the clock's now; returns what it ran. */
  async tick(): Promise<SchedulerRun[]> {
    const runs: SchedulerRun[] = [];
    for (;;) {
      const claimed = this.claimBatch();
      if (claimed.length === 0) return runs;
      for (const { row, slot } of claimed) {
        try {
          runs.push({ workflow_id: row.id, slot, execution_id: await this.runClaimed(row, slot) });
        } catch (error) {
          runs.push({ workflow_id: row.id, slot, execution_id: null, error: error instanceof Error ? error.message : String(error) });
        }
      }
    }
  }

  /** The loop `wvr serve` and `wvr worker` run; a tick never overlaps the previous one. */
  start(intervalMs = 1_000): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.tick().finally(() => {
        this.running = undefined;
      });
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private claimBatch(): { row: WorkflowRow; slot: string }[] {
    const now = this.ctx.clock.now();
    const due = this.ctx.db
      .select()
      .from(workflows)
      .where(and(eq(workflows.status, 'active'), isNotNull(workflows.nextRunAt), lte(workflows.nextRunAt, now.toISOString())))
      .orderBy(asc(workflows.nextRunAt))
      .limit(this.batchSize)
      .all();
    const claimed: { row: WorkflowRow; slot: string }[] = [];
    for (const row of due) {
      const slot = row.nextRunAt!;
      const next = nextSlot(scheduleOf(row), new Date(slot), now);
      const result = this.ctx.db
        .update(workflows)
        .set({ nextRunAt: next?.toISOString() ?? null })
        .where(and(eq(workflows.id, row.id), eq(workflows.status, 'active'), eq(workflows.nextRunAt, slot)))
        .run();
      if (result.changes === 1) claimed.push({ row: { ...row, nextRunAt: next?.toISOString() ?? null }, slot });
    }
    return claimed;
  }
}
