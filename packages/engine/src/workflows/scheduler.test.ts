import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../engine.js';
import { MINUTE } from '../core/clock.js';
import { openTestEngine, type TestEngine } from '../testing/engine.js';
import type { Principal } from '../accounts/schemas.js';

/** Aggregate-only pipelines need no outside service, so these tests exercise the scheduler alone. */
const pipeline = { mode: 'multi_step', steps: [{ id: 'combine', type: 'aggregate', config: {} }] } as const;

let t: TestEngine;
let others: Engine[] = [];
afterEach(async () => {
  for (const e of others) await e.close();
  others = [];
  await t.dispose();
});

function owner(engine: Engine): Principal {
  const user = engine.accounts.ensureUser({ email: 'owner@x.test' });
  return engine.accounts.localPrincipal(user);
}

describe('workflow scheduler', () => {
  it('runs a scheduled_for workflow once, then completes it', async () => {
    t = openTestEngine();
    const p = owner(t.engine);
    const { workflow } = await t.engine.workflows.create(p, { name: 'once', ...pipeline, scheduled_for: '2026-03-10T13:00:00Z' });
    expect(await t.engine.workflows.scheduler.tick()).toEqual([]);
    t.clock.advance(60 * MINUTE);
    const runs = await t.engine.workflows.scheduler.tick();
    expect(runs).toHaveLength(1);
    expect(runs[0]!.slot).toBe('2026-03-10T13:00:00.000Z');
    t.clock.advance(24 * 60 * MINUTE);
    expect(await t.engine.workflows.scheduler.tick()).toEqual([]);
    const detail = t.engine.workflows.get(p, workflow!.id);
    expect(detail.status).toBe('completed');
    expect(detail.execution_count).toBe(1);
    expect(detail.next_run_at).toBeNull();
  });

  it('runs anchored interval slots at the anchor minute', async () => {
    t = openTestEngine();
    const p = owner(t.engine);
    await t.engine.workflows.create(p, { name: 'anchored', ...pipeline, interval_minutes: 60, anchor_minute: 45 });
    t.clock.set('2026-03-10T12:44:59Z');
    expect(await t.engine.workflows.scheduler.tick()).toEqual([]);
    t.clock.set('2026-03-10T12:45:00Z');
    expect((await t.engine.workflows.scheduler.tick()).map((r) => r.slot)).toEqual(['2026-03-10T12:45:00.000Z']);
    t.clock.set('2026-03-10T13:45:00Z');
    expect((await t.engine.workflows.scheduler.tick()).map((r) => r.slot)).toEqual(['2026-03-10T13:45:00.000Z']);
  });

  it('catches up after downtime with one run, not one per missed slot', async () => {
    t = openTestEngine();
    const p = owner(t.engine);
    const { workflow } = await t.engine.workflows.create(p, { name: 'every 5', ...pipeline, interval_minutes: 5 });
    expect(await t.engine.workflows.scheduler.tick()).toHaveLength(1);
    t.clock.advance(3 * 60 * MINUTE + 2 * MINUTE);
    expect(await t.engine.workflows.scheduler.tick()).toHaveLength(1);
    expect(t.engine.workflows.get(p, workflow!.id).next_run_at).toBe('2026-03-10T15:05:00.000Z');
  });

  it('runs each slot once when two engines share one database file', async () => {
    t = openTestEngine();
    const second = createEngine({ dbPath: t.dbPath, clock: t.clock, secret: 'test-secret' });
    others.push(second);
    const p = owner(t.engine);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await t.engine.workflows.create(p, { name: `w${i}`, ...pipeline, interval_minutes: 10 })).workflow!.id);
    const slots: string[] = [];
    for (let round = 0; round < 4; round++) {
      const [a, b] = await Promise.all([t.engine.workflows.scheduler.tick(), second.workflows.scheduler.tick()]);
      slots.push(...[...a, ...b].map((r) => `${r.workflow_id}@${r.slot}`));
      t.clock.advance(10 * MINUTE);
    }
    expect(slots).toHaveLength(20);
    expect(new Set(slots).size).toBe(20);
    for (const id of ids) expect(t.engine.workflows.executions(p, id, { limit: 100 }).total).toBe(4);
  });

  it('runs each slot once when a second engine process ticks at the same moment', async () => {
    t = openTestEngine();
    const p = owner(t.engine);
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) ids.push((await t.engine.workflows.create(p, { name: `w${i}`, ...pipeline, interval_minutes: 10 })).workflow!.id);
    const script = fileURLToPath(new URL('./scheduler-process.fixture.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', script, t.dbPath, t.clock.now().toISOString()], { stdio: ['pipe', 'pipe', 'inherit'] });
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    expect((await lines.next()).value).toBe('ready');
    child.stdin.write('go\n');
    const mine = (await t.engine.workflows.scheduler.tick()).map((r) => `${r.workflow_id}@${r.slot}`);
    const theirs = JSON.parse((await lines.next()).value as string) as string[];
    expect([...mine, ...theirs].sort()).toEqual(ids.map((id) => `${id}@2026-03-10T12:00:00.000Z`).sort());
    for (const id of ids) expect(t.engine.workflows.executions(p, id).total).toBe(1);
  });

  it('does not run paused workflows, and resumes them from the next slot', async () => {
    t = openTestEngine();
    const p = owner(t.engine);
    const { workflow } = await t.engine.workflows.create(p, { name: 'pausable', ...pipeline, interval_minutes: 10 });
    t.engine.workflows.update(p, workflow!.id, { status: 'paused' });
    t.clock.advance(30 * MINUTE);
    expect(await t.engine.workflows.scheduler.tick()).toEqual([]);
    t.engine.workflows.update(p, workflow!.id, { status: 'active' });
    expect(await t.engine.workflows.scheduler.tick()).toHaveLength(1);
  });
});
