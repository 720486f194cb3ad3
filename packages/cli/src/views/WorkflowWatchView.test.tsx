import { describe, expect, it } from 'vitest';
import { render } from 'ink-testing-library';
import { WorkflowWatchView } from './WorkflowWatchView.js';
import { watchSnapshot } from './workflow-watch.js';
import { execution, workflow } from './workflow-fixtures.js';

const now = Date.parse('2026-01-01T00:55:00.000Z');

describe('WorkflowWatchView', () => {
  it('lists upcoming runs with their distance from now, then the latest changes with new and changed pages', () => {
    const snapshot = watchSnapshot([
      workflow({ execution_count: 2, recent_executions: [execution(2, '2026-01-01T00:50:00.000Z', { changed_urls: ['http://h/edited'] })] }),
      workflow({ id: 'w2', name: 'Docs watch', status: 'paused', next_run_at: null }),
    ]);
    const frame = render(<WorkflowWatchView snapshot={snapshot} nowMs={now} />).lastFrame()!;
    const lines = frame.split('\n');
    expect(lines[0]).toBe('Upcoming runs');
    expect(lines[1]).toMatch(/^in 5m\s+Laptop prices\s+active\s+every 60 min · 2 run\(s\)$/);
    expect(lines[2]).toMatch(/^-\s+Docs watch\s+paused\s+every 60 min · 0 run\(s\)$/);
    expect(frame).toContain('Latest changes');
    expect(frame).toContain('#2 Laptop prices · 5m ago · 5 result(s) +2 new -1 dropped =3 retained ~1 changed (50.0%)');
    expect(frame).toContain('+ New page http://h/new');
    expect(frame).toContain('~ http://h/edited');
  });

  it('says so when there are no workflows or no runs yet, and updates on rerender', () => {
    const view = render(<WorkflowWatchView snapshot={watchSnapshot([])} nowMs={now} />);
    expect(view.lastFrame()).toContain('(no workflows)');
    expect(view.lastFrame()).toContain('(no runs yet)');
    view.rerender(<WorkflowWatchView snapshot={watchSnapshot([workflow({ recent_executions: [execution(1, '2026-01-01T00:54:00.000Z')] })])} nowMs={now} />);
    expect(view.lastFrame()).toContain('#1 Laptop prices · 1m ago');
    expect(view.lastFrame()).not.toContain('(no runs yet)');
  });
});
