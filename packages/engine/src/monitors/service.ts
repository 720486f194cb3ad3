import type { EngineContext } from '../context.js';
import { DAY } from '../core/clock.js';
import { parseInput } from '../core/validate.js';
import type { Principal } from '../accounts/schemas.js';
import type { WorkflowsService } from '../workflows/service.js';
import type { WorkflowExecution } from '../workflows/responses.js';
import { recommend } from './recommend.js';
import {
  ChronicleQuery,
  DigestQuery,
  type MonitorChronicle,
  type MonitorDigest,
  type MonitorRecommendations,
} from './schemas.js';
import { describeRun, changesOf } from './story.js';

const PAGE = 100;
/** Recommendations read this many recent reports: enough to see a trend, few enough to stay current. */
const RECOMMENDATION_REPORTS = 10;
const HIGHLIGHTS = 5;

/**
 * What an agent asks of its monitors beyond CRUD: the story of one, the news across all, and
 * where to look next. Read-only views over the workflows service; nothing here is stored.
 */
export class MonitorsService {
  constructor(
    private readonly ctx: EngineContext,
    private readonly workflows: WorkflowsService,
  ) {}

  async chronicle(principal: Principal, id: string, query: unknown = {}): Promise<MonitorChronicle> {
    const { limit } = parseInput(ChronicleQuery, query, 'query');
    const workflow = await this.workflows.get(principal, id);
    const page = await this.workflows.executions(principal, id, { limit, offset: 0 });
    const entries = [...page.data].reverse().map((e) => {
      const changes = changesOf(e);
      return {
        execution_id: e.id,
        seq: e.seq,
        at: e.finished_at,
        trigger: e.trigger,
        status: e.status,
        summary: describeRun(e),
        ...changes,
        condition_met: e.condition_met,
        credits_consumed: e.credits.consumed,
      };
    });
    return {
      workflow_id: workflow.id,
      name: workflow.name,
      status: workflow.status,
      reports_total: page.total,
      totals: {
        runs: entries.length,
        new: sum(entries.map((e) => e.new.length)),
        dropped: sum(entries.map((e) => e.dropped.length)),
        changed: sum(entries.map((e) => e.changed.length)),
      },
      entries,
    };
  }

  async digest(principal: Principal, query: unknown = {}): Promise<MonitorDigest> {
    const q = parseInput(DigestQuery, query, 'query');
    const until = q.until ? Date.parse(q.until) : this.ctx.clock.now().getTime();
    const since = q.since ? Date.parse(q.since) : until - DAY;
    const workflows = await this.allWorkflows(principal);
    const monitors = await Promise.all(workflows.map(async (workflow) => {
      const runs = await this.executionsBetween(principal, workflow.id, since, until);
      const changes = runs.map(changesOf);
      const counts = {
        new_count: sum(changes.map((c) => c.new.length)),
        dropped_count: sum(changes.map((c) => c.dropped.length)),
        changed_count: sum(changes.map((c) => c.changed.length)),
      };
      const conditionMet = runs.some((r) => r.condition_met);
      return {
        workflow_id: workflow.id,
        name: workflow.name,
        status: workflow.status,
        runs: runs.length,
        ...counts,
        condition_met: conditionMet,
        highlights: changes.flatMap((c) => c.new).slice(0, HIGHLIGHTS),
        last_run_at: runs[0]?.finished_at ?? null,
        summary: digestLine(runs.length, counts, conditionMet),
      };
    }));
    const significance = (m: (typeof monitors)[number]) => m.new_count + m.dropped_count + m.changed_count;
    monitors.sort((a, b) => Number(b.condition_met) - Number(a.condition_met) || significance(b) - significance(a) || a.name.localeCompare(b.name));
    return {
      since: new Date(since).toISOString(),
      until: new Date(until).toISOString(),
      monitors_total: monitors.length,
      monitors_with_changes: monitors.filter((m) => significance(m) > 0).length,
      totals: {
        runs: sum(monitors.map((m) => m.runs)),
        new: sum(monitors.map((m) => m.new_count)),
        dropped: sum(monitors.map((m) => m.dropped_count)),
        changed: sum(monitors.map((m) => m.changed_count)),
      },
      monitors,
    };
  }

  async recommendations(principal: Principal, id: string): Promise<MonitorRecommendations> {
    const workflow = await this.workflows.get(principal, id);
    const reports = (await this.workflows.executions(principal, id, { limit: RECOMMENDATION_REPORTS, offset: 0 })).data;
    const query = typeof workflow.operation_config?.query === 'string' ? workflow.operation_config.query : (workflow.intent ?? workflow.name);
    return { workflow_id: workflow.id, ...recommend(query, reports) };
  }

  private async allWorkflows(principal: Principal) {
    const all = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await this.workflows.list(principal, { limit: PAGE, offset });
      all.push(...page.data);
      if (all.length >= page.total || page.data.length === 0) return all;
    }
  }

  /** Newest first, paging back until the runs are older than the window. */
  private async executionsBetween(principal: Principal, id: string, since: number, until: number): Promise<WorkflowExecution[]> {
    const inWindow: WorkflowExecution[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await this.workflows.executions(principal, id, { limit: PAGE, offset });
      for (const run of page.data) {
        const at = Date.parse(run.finished_at);
        if (at >= since && at <= until) inWindow.push(run);
      }
      const oldest = page.data.at(-1);
      if (!oldest || Date.parse(oldest.finished_at) < since || offset + PAGE >= page.total) return inWindow;
    }
  }
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

function digestLine(runs: number, counts: { new_count: number; dropped_count: number; changed_count: number }, conditionMet: boolean): string {
  if (runs === 0) return 'No runs in this window.';
  const parts = [
    counts.new_count ? `${counts.new_count} new` : '',
    counts.dropped_count ? `${counts.dropped_count} gone` : '',
    counts.changed_count ? `${counts.changed_count} changed` : '',
  ].filter(Boolean);
  const what = parts.length > 0 ? parts.join(', ') : 'no changes';
  return `${runs} run${runs === 1 ? '' : 's'}: ${what}${conditionMet ? '; its stop condition was met' : ''}.`;
}
