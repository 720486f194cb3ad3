import { describe, expect, it } from 'vitest';
import { changeLine, latestRun, relative, scheduleOf, unseenRuns, watchSnapshot } from './workflow-watch.js';
import { execution, workflow } from './workflow-fixtures.js';

describe('workflow watch model', () => {
  it('describes each kind of schedule', () => {
    expect(scheduleOf(workflow())).toBe('every 60 min');
    expect(scheduleOf(workflow({ interval_minutes: null, interval: '2 hours' }))).toBe('every 2 hours');
    expect(scheduleOf(workflow({ interval_minutes: null, cron_expression: '0 9 * * 1', timezone: 'Europe/Paris' }))).toBe('cron 0 9 * * 1 Europe/Paris');
    expect(scheduleOf(workflow({ interval_minutes: null, scheduled_for: '2026-02-01T00:00:00Z' }))).toBe('once at 2026-02-01T00:00:00Z');
    expect(scheduleOf(workflow({ interval_minutes: null }))).toBe('manual');
  });

  it('orders upcoming runs soonest first with unscheduled ones last, and the latest changes newest first', () => {
    const snapshot = watchSnapshot([
      workflow({ id: 'a', name: 'paused one', status: 'paused', next_run_at: null }),
      workflow({ id: 'b', name: 'later', next_run_at: '2026-01-01T05:00:00.000Z', recent_executions: [execution(1, '2026-01-01T00:10:00.000Z')] }),
      workflow({ id: 'c', name: 'sooner', next_run_at: '2026-01-01T02:00:00.000Z', recent_executions: [execution(4, '2026-01-01T00:30:00.000Z')] }),
    ]);
    expect(snapshot.upcoming.map((u) => u.name)).toEqual(['sooner', 'later', 'paused one']);
    expect(snapshot.latest.map((l) => [l.workflowName, l.seq])).toEqual([
      ['sooner', 4],
      ['later', 1],
    ]);
  });

  it('tells a run in one line: counts, changed pages, the stop condition, or the failure', () => {
    const run = latestRun(workflow({ recent_executions: [execution(3, '2026-01-01T00:00:00.000Z', { changed_urls: ['http://h/x'] })] }))!;
    expect(changeLine(run)).toBe('Laptop prices run #3 completed at 2026-01-01T00:00:00.000Z: 5 result(s), +2 new, -1 dropped, 3 retained, 1 changed (change 50.0%)');
    const failed = { ...execution(4, '2026-01-01T00:00:00.000Z'), status: 'failed' as const, error: { code: 'insufficient_credits', message: 'no credits' } };
    expect(changeLine(latestRun(workflow({ recent_executions: [failed] }))!)).toContain('run #4 failed at 2026-01-01T00:00:00.000Z: insufficient_credits: no credits');
    const met = { ...execution(5, '2026-01-01T00:00:00.000Z'), condition_met: true };
    expect(changeLine(latestRun(workflow({ recent_executions: [met] }))!)).toMatch(/· stop condition met$/);
    expect(latestRun(workflow())).toBeNull();
  });

  it('gives a plain watch every run it has not shown, oldest first: the latest of each workflow at the first look', () => {
    const seen = new Set<string>();
    const a1 = execution(1, '2026-01-01T00:01:00.000Z');
    const b7 = execution(7, '2026-01-01T00:02:00.000Z');
    const first = unseenRuns([workflow({ id: 'a', recent_executions: [a1] }), workflow({ id: 'b', name: 'B', recent_executions: [b7, execution(6, '2026-01-01T00:00:00.000Z')] })], seen);
    expect(first.map((r) => [r.workflowId, r.seq])).toEqual([
      ['a', 1],
      ['b', 7],
    ]);
    // Two runs of a finished between two looks (one by hand, one by the schedule): both are told, in order.
    const later = [workflow({ id: 'a', recent_executions: [execution(3, '2026-01-01T00:04:00.000Z'), execution(2, '2026-01-01T00:03:00.000Z'), a1] }), workflow({ id: 'b', name: 'B', recent_executions: [b7] })];
    expect(unseenRuns(later, seen).map((r) => r.seq)).toEqual([2, 3]);
    expect(unseenRuns(later, seen)).toEqual([]);
  });

  it('says how far a time is from now', () => {
    const now = Date.parse('2026-01-01T00:00:00.000Z');
    expect(relative('2026-01-01T00:04:00.000Z', now)).toBe('in 4m');
    expect(relative('2025-12-31T21:00:00.000Z', now)).toBe('3h ago');
    expect(relative('2026-01-01T00:00:30.000Z', now)).toBe('in 30s');
    expect(relative(null, now)).toBe('-');
  });
});
