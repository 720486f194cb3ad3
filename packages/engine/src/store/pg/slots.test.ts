import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PgExecutor } from './executor.js';
import { PgSchedules } from './workflows.js';
import { usePostgres } from './testing.js';

const WORKER = fileURLToPath(new URL('./worker.fixture.ts', import.meta.url));
const WORKFLOWS = 2_000;
const SLOTS = ['2026-01-01T00:00:00.000Z', '2026-01-01T00:01:00.000Z', '2026-01-01T00:02:00.000Z'];

const store = usePostgres('slots', { max: 4 });

async function addWorkflows(n: number, prefix: string): Promise<void> {
  await store.pool.query(
    `INSERT INTO workflows (id, user_id, name, mode, stop_condition, tags, timezone, status, next_run_at, created_at, updated_at)
     SELECT $1 || i, 'u1', 'w', 'simple', '{}'::jsonb, '[]'::jsonb, 'UTC', 'active', $2, 'now', 'now' FROM generate_series(1, $3) AS i`,
    [prefix, SLOTS[0], n],
  );
}

describe('schedule slots on PostgreSQL', () => {
  it('4 processes × 2,000 workflows × 3 slots: exactly one claim per workflow and slot', async () => {
    await addWorkflows(WORKFLOWS, 'w');
    const children = [0, 1, 2, 3].map(() =>
      fork(WORKER, ['slots', store.url, ...SLOTS], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
    );
    const results = children.map(async (child) => {
      const won: string[] = [];
      child.on('message', (message: { won?: string[] }) => {
        if (message.won) won.push(...message.won);
      });
      const [code] = await once(child, 'exit');
      expect(code).toBe(0);
      return won;
    });
    const perProcess = await Promise.all(results);
    const all = perProcess.flat();
    expect(all.length).toBe(WORKFLOWS * SLOTS.length);
    expect(new Set(all).size).toBe(WORKFLOWS * SLOTS.length);
    // Contended for real: more than one process won claims.
    expect(perProcess.filter((won) => won.length > 0).length).toBeGreaterThan(1);
    const { rows } = await store.pool.query<{ n: number; distinct_slots: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT (workflow_id, slot))::int AS distinct_slots FROM workflow_executions WHERE workflow_id LIKE 'w%'`,
    );
    expect(rows[0]).toEqual({ n: WORKFLOWS * SLOTS.length, distinct_slots: WORKFLOWS * SLOTS.length });
    const seqs = await store.pool.query<{ bad: number }>(
      `SELECT count(*)::int AS bad FROM (SELECT workflow_id FROM workflow_executions WHERE workflow_id LIKE 'w%' GROUP BY workflow_id HAVING array_agg(seq ORDER BY seq) <> ARRAY[1,2,3]) x`,
    );
    expect(seqs.rows[0]!.bad).toBe(0);
  }, 480_000);

  it('claims neither a slot not yet due nor a paused workflow', async () => {
    await addWorkflows(1, 'single');
    const schedules = new PgSchedules(new PgExecutor(store.pool));
    const mine = async (dueBy: string) => (await schedules.claimDue(dueBy, 10_000, () => SLOTS[1]!)).claimed.filter((c) => c.workflow.id === 'single1');
    expect(await mine('2025-12-31T23:59:59.000Z')).toEqual([]);
    expect((await mine(SLOTS[0]!)).map((c) => c.slot)).toEqual([SLOTS[0]]);
    // Its slot moved on to SLOTS[1], not yet due by SLOTS[0].
    expect(await mine(SLOTS[0]!)).toEqual([]);
    await store.pool.query(`UPDATE workflows SET status = 'paused' WHERE id = 'single1'`);
    expect(await mine(SLOTS[1]!)).toEqual([]);
  });

  it('claimDue: 4 engines claiming at once (SKIP LOCKED) take each due workflow exactly once', async () => {
    await addWorkflows(1_000, 'due');
    const engines = [0, 1, 2, 3].map(() => new PgSchedules(new PgExecutor(store.pool)));
    const won: string[] = [];
    await Promise.all(
      engines.map(async (schedules) => {
        for (;;) {
          const { claimed, read } = await schedules.claimDue(SLOTS[0]!, 25, () => SLOTS[1]!);
          won.push(...claimed.map((c) => `${c.workflow.id}@${c.slot}`));
          if (read === 0) return;
        }
      }),
    );
    const due = won.filter((w) => w.startsWith('due'));
    expect(due).toHaveLength(1_000);
    expect(new Set(due).size).toBe(1_000);
    expect(await engines[0]!.dueCount(SLOTS[0]!)).toBe(0);
    expect(await engines[0]!.dueCount(SLOTS[1]!)).toBeGreaterThanOrEqual(1_000);
  }, 120_000);
});
