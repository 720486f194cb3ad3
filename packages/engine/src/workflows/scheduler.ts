import type { EngineContext } from '../context.js';
import { every, type Loop } from '../core/every.js';
import { nextSlot, scheduleOf } from './schedule.js';
import type { WorkflowRow } from './executor.js';

export interface SchedulerRun {
  workflow_id: string;
  slot: string;
  execution_id: string | null;
  error?: string;
}

export interface SchedulerOptions {
  /** Executions a tick runs at once; default 8 (they mostly wait on the network). */
  concurrency?: number | undefined;
}

const DEFAULT_SCHEDULER_CONCURRENCY = 8;

interface Claim {
  row: WorkflowRow;
  slot: string;
}

/**
 * Claims due workflows from the store and runs them. A claim is a compare-and-set on
 * `next_run_at` (the `schedules` port): the engine that moves the slot forward owns it, so two
 * engines on one database run each slot once. Catch-up policy: a workflow that missed slots during downtime runs
 * once, and its next slot is the first one after now.
 */
export class WorkflowScheduler {
  private loop: Loop | undefined;
  private readonly ticks = new Set<Promise<SchedulerRun[]>>();
  private stopping = false;
  private concurrency: number;

  constructor(
    private readonly ctx: EngineContext,
    private readonly runClaimed: (w: WorkflowRow, slot: string) => Promise<string | null>,
    options: SchedulerOptions = {},
  ) {
    this.concurrency = concurrencyOf(options);
  }

  /**
   * Runs what is due at the clock's now when the tick begins, at most `concurrency` at once; returns
   * what it ran in claim order. Slots that fall due while it runs wait for the next tick, so a tick
   * behind schedule still ends. A slot is claimed only when a runner is free for it: a stop never
   * leaves a claimed slot unrun.
   */
  tick(options: SchedulerOptions = {}): Promise<SchedulerRun[]> {
    const concurrency = options.concurrency === undefined ? this.concurrency : concurrencyOf(options);
    const tick = this.runTick(concurrency).finally(() => this.ticks.delete(tick));
    this.ticks.add(tick);
    return tick;
  }

  /** The loop `wvr serve` and `wvr worker` run; a tick never overlaps the previous one. */
  start(intervalMs = 1_000, options: SchedulerOptions = {}): void {
    if (this.loop) return;
    if (options.concurrency !== undefined) this.concurrency = concurrencyOf(options);
    this.loop = every(intervalMs, () => this.tick());
  }

  /** Ends the loop; running ticks finish the executions they started, claim nothing more, and return. */
  async stop(): Promise<void> {
    const loop = this.loop;
    this.loop = undefined;
    this.stopping = true;
    try {
      await Promise.allSettled([loop?.stop(), ...this.ticks]);
    } finally {
      this.stopping = false;
    }
  }

  private async runTick(concurrency: number): Promise<SchedulerRun[]> {
    const dueBy = this.ctx.clock.now().toISOString();
    const runs: SchedulerRun[] = [];
    const running = new Set<Promise<void>>();
    try {
      while (!this.stopping) {
        const free = concurrency - running.size;
        if (free > 0) {
          const { claimed, exhausted } = await this.claimBatch(dueBy, free);
          for (const claim of claimed) {
            const index = runs.push({ workflow_id: claim.row.id, slot: claim.slot, execution_id: null }) - 1;
            const run = this.runOne(claim).then((r) => {
              runs[index] = r;
            });
            running.add(run);
            void run.finally(() => running.delete(run));
          }
          if (exhausted) break;
          // Another engine took some of the rows read: read again for the runners still free.
          if (running.size < concurrency) continue;
        }
        await Promise.race(running);
      }
    } finally {
      // Even when a claim fails, the tick ends only after what it started, so close() never cuts one short.
      await Promise.all(running);
    }
    return runs;
  }

  private async runOne({ row, slot }: Claim): Promise<SchedulerRun> {
    try {
      return { workflow_id: row.id, slot, execution_id: await this.runClaimed(row, slot) };
    } catch (error) {
      return { workflow_id: row.id, slot, execution_id: null, error: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Active workflows due by the clock's now: what a process starting the scheduler will run first (the CLI says so). */
  dueCount(): Promise<number> {
    return this.ctx.store.schedules.dueCount(this.ctx.clock.now().toISOString());
  }

  /** Claims up to `limit` slots due by `dueBy`; `exhausted` when fewer than `limit` were due. */
  private async claimBatch(dueBy: string, limit: number): Promise<{ claimed: Claim[]; exhausted: boolean }> {
    // The next slot is the first after the claim's now (the catch-up policy), so it is never due by `dueBy`.
    const now = this.ctx.clock.now();
    const { claimed, read } = await this.ctx.store.schedules.claimDue(dueBy, limit, (row, slot) => nextSlot(scheduleOf(row), new Date(slot), now)?.toISOString() ?? null);
    return { claimed: claimed.map(({ workflow, slot }) => ({ row: workflow, slot })), exhausted: read < limit };
  }
}

function concurrencyOf(options: SchedulerOptions): number {
  const n = options.concurrency ?? DEFAULT_SCHEDULER_CONCURRENCY;
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`scheduler concurrency must be a positive integer, got ${n}`);
  return n;
}
