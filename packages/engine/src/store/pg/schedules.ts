import type pg from 'pg';
import { PgExecutor } from './executor.js';
import { inTransaction } from './tx.js';

/**
 * A workflow row with camelCase keys, as store-c's WorkflowRecord (store/ports/workflows.ts on their
 * branch; imported from there once the branches meet).
 */
export type WorkflowRecord = { id: string; nextRunAt: string | null } & Record<string, unknown>;

export interface ClaimedSlot {
  workflow: WorkflowRecord;
  slot: string;
}

export interface SlotClaim {
  /** The `running` execution row created for the slot. */
  executionId: string;
  startedAt: string;
}

/**
 * Schedule slots on PostgreSQL: each (workflow, slot) runs once however many servers tick.
 *
 * The claim is a compare-and-set on `workflows.next_run_at` (the slot moves to the next one). Under
 * READ COMMITTED a second server's UPDATE of the same row waits for the first to commit, re-reads the
 * row, sees the slot already moved and matches nothing, so exactly one wins. The execution row is
 * written in the same transaction, under that row lock (which is also why its per-workflow `seq`
 * may be computed from the workflow's own rows), and `(workflow_id, slot)` is unique as a second guard.
 */
export class PgSchedules {
  private readonly ex: PgExecutor;

  constructor(private readonly pool: pg.Pool) {
    this.ex = new PgExecutor(pool);
  }

  /**
   * store-c's SchedulesPort.claimDue: up to `limit` active workflows due by `dueBy`, earliest first,
   * each moved to `following(workflow, slot)`. `FOR UPDATE SKIP LOCKED`: a workflow another server is
   * claiming right now is skipped (it is theirs), never waited for or claimed twice.
   */
  claimDue(dueBy: string, limit: number, following: (w: WorkflowRecord, slot: string) => string | null): Promise<{ claimed: ClaimedSlot[]; read: number }> {
    return this.ex.atomically(async () => {
      const { rows } = await this.ex.query(
        `SELECT * FROM workflows WHERE status = 'active' AND next_run_at IS NOT NULL AND next_run_at <= $1
         ORDER BY next_run_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [dueBy, limit],
      );
      const claimed: ClaimedSlot[] = [];
      for (const row of rows.map(camel)) {
        const slot = row.nextRunAt!;
        const next = following(row, slot);
        await this.ex.query('UPDATE workflows SET next_run_at = $2 WHERE id = $1', [row.id, next]);
        claimed.push({ workflow: { ...row, nextRunAt: next }, slot });
      }
      return { claimed, read: rows.length };
    });
  }

  async dueCount(now: string): Promise<number> {
    const { rows } = await this.ex.query<{ n: number }>(`SELECT count(*) AS n FROM workflows WHERE status = 'active' AND next_run_at IS NOT NULL AND next_run_at <= $1`, [now]);
    return rows[0]!.n;
  }

  /** Claims `slot` of a workflow and moves it to `next`; null when another server (or an earlier tick) has it. */
  claimSlot(workflowId: string, slot: string, next: string | null, claim: SlotClaim): Promise<string | null> {
    return inTransaction(this.pool, async (client) => {
      const moved = await client.query<{ user_id: string }>(
        `UPDATE workflows SET next_run_at = $3, updated_at = $4
         WHERE id = $1 AND status = 'active' AND next_run_at = $2 RETURNING user_id`,
        [workflowId, slot, next, claim.startedAt],
      );
      const userId = moved.rows[0]?.user_id;
      if (userId === undefined) return null;
      const inserted = await client.query(
        `INSERT INTO workflow_executions (id, workflow_id, user_id, seq, trigger, slot, status, condition_met, body, started_at, finished_at)
         SELECT $1, $2, $3, COALESCE(MAX(seq), 0) + 1, 'schedule', $4, 'running', false, '{}'::jsonb, $5, $5
         FROM workflow_executions WHERE workflow_id = $2
         ON CONFLICT (workflow_id, slot) DO NOTHING`,
        [claim.executionId, workflowId, userId, slot, claim.startedAt],
      );
      return inserted.rowCount === 1 ? claim.executionId : null;
    });
  }
}

/** snake_case columns to the camelCase keys drizzle gives the SQLite rows. */
function camel(row: Record<string, unknown>): WorkflowRecord {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), v])) as WorkflowRecord;
}
