import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestEngine, rejectionCodeOf, sharingCast, type TestEngine } from '../testing/engine.js';
import { isWvrError, type WvrError } from '../core/errors.js';
import type { Principal } from '../accounts/schemas.js';

let t: TestEngine;
let p: Principal;
beforeEach(async () => {
  t = openTestEngine();
  p = t.engine.accounts.localPrincipal(await t.engine.accounts.ensureUser({ email: 'a@x.test' }));
});
afterEach(() => t.dispose());

const search = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  workflow_type: 'search',
  operation_config: { query: 'solar panel prices' },
  interval: '1 day',
  ...extra,
});

async function failure(fn: () => unknown): Promise<WvrError> {
  try {
    await fn();
  } catch (error) {
    if (isWvrError(error)) return error;
    throw error;
  }
  throw new Error('expected a WvrError');
}

describe('workflows service', () => {
  it('creates a simple search workflow due at once and shows it', async () => {
    const { workflow } = await t.engine.workflows.create(p, search('Solar'));
    expect(workflow).toMatchObject({ status: 'active', mode: 'simple', timezone: 'UTC', next_run_at: '2026-03-10T12:00:00.000Z', estimated_credits_per_execution: 1 });
    expect(await t.engine.workflows.get(p, workflow!.id)).toMatchObject({ id: workflow!.id, recent_executions: [] });
  });

  it('prices executions: 1 basic, 2 with a natural_language stop, the sum of steps for multi_step', async () => {
    const nl = await t.engine.workflows.create(p, search('NL', { stop_condition: { type: 'natural_language', description: 'a price cut below 100 dollars is announced' } }));
    expect(nl.estimate.credits_per_execution).toBe(2);
    const multi = await t.engine.workflows.create(p, {
      name: 'pipeline',
      mode: 'multi_step',
      interval_minutes: 60,
      steps: [
        { id: 'a', type: 'search', config: { query: 'x' } },
        { id: 'b', type: 'crawl', depends_on: ['a'], config: { urls: ['{{a}}'], max_pages: 3 } },
        { id: 'c', type: 'aggregate', depends_on: ['a', 'b'], config: {} },
      ],
    });
    expect(multi.estimate.credits_per_execution).toBe(4);
  });

  it('refuses a cron expression that never fires (31 February), even on dry_run, and creates nothing', async () => {
    for (const dry_run of [false, true]) {
      const error = await failure(() => t.engine.workflows.create(p, search('feb31', { interval: undefined, cron_expression: '0 0 31 2 *', dry_run })));
      expect(error).toMatchObject({ status: 400, code: 'cron_expression_never_fires', details: { fields: [{ path: 'cron_expression', code: 'cron_expression_never_fires' }] } });
    }
    expect((await t.engine.workflows.list(p)).total).toBe(0);
  });

  it('estimates without creating on dry_run', async () => {
    const r = await t.engine.workflows.create(p, search('dry', { dry_run: true }));
    expect(r).toMatchObject({ dry_run: true, workflow: null, estimate: { credits_per_execution: 1, would_succeed: true, credits_balance: 100 } });
    expect((await t.engine.workflows.list(p)).total).toBe(0);
  });

  it('rejects unknown step ids and cycles with 400 and field details', async () => {
    const unknown = await failure(() =>
      t.engine.workflows.create(p, { name: 'bad', mode: 'multi_step', interval_minutes: 5, steps: [{ id: 'a', type: 'aggregate', depends_on: ['ghost'], config: {} }] }),
    );
    expect(unknown.status).toBe(400);
    expect(unknown.details?.fields).toContainEqual(expect.objectContaining({ path: 'steps.0.depends_on', code: 'step_unknown_dependency' }));
    const cycle = await failure(() =>
      t.engine.workflows.create(p, {
        name: 'loop',
        mode: 'multi_step',
        interval_minutes: 5,
        steps: [
          { id: 'a', type: 'aggregate', depends_on: ['b'], config: {} },
          { id: 'b', type: 'aggregate', depends_on: ['a'], config: {} },
        ],
      }),
    );
    expect(cycle.status).toBe(400);
    expect(cycle.code).toBe('steps_cycle');
    const cascade = await failure(() =>
      t.engine.workflows.create(p, { name: 'c', mode: 'multi_step', interval_minutes: 5, steps: [{ id: 'a', type: 'aggregate', cascade_condition: 'whenever', config: {} }] }),
    );
    expect(cascade.code).toBe('cascade_condition_invalid');
  });

  it('enforces the state machine with 409s that name the move', async () => {
    const { workflow } = await t.engine.workflows.create(p, search('life'));
    const id = workflow!.id;
    expect(await t.engine.workflows.update(p, id, { status: 'paused' })).toMatchObject({ status: 'paused', next_run_at: null });
    expect((await t.engine.workflows.update(p, id, { status: 'stopped' })).status).toBe('stopped');
    const back = await failure(() => t.engine.workflows.update(p, id, { status: 'active' }));
    expect(back).toMatchObject({ status: 409, code: 'workflow_transition_invalid', details: { from: 'stopped', to: 'active', allowed: ['archived'] } });
    expect((await failure(() => t.engine.workflows.execute(p, id))).code).toBe('workflow_stopped');
    await t.engine.workflows.update(p, id, { status: 'archived' });
    expect((await failure(() => t.engine.workflows.update(p, id, { name: 'renamed' }))).code).toBe('workflow_archived');
  });

  it('patches editable fields and reschedules on a new interval', async () => {
    const { workflow } = await t.engine.workflows.create(p, search('patch'));
    const updated = await t.engine.workflows.update(p, workflow!.id, { name: 'renamed', interval_minutes: 15, max_executions: 3, stop_condition: { type: 'result_count', operator: '>=', value: 5 } });
    expect(updated).toMatchObject({ name: 'renamed', interval_minutes: 15, max_executions: 3, stop_condition: { type: 'result_count' } });
    expect(updated.next_run_at).toBe('2026-03-10T12:00:00.000Z');
    expect((await failure(() => t.engine.workflows.update(p, workflow!.id, {}))).code).toBe('patch_body_empty');
    const { workflow: cron } = await t.engine.workflows.create(p, search('cron', { interval: undefined, cron_expression: '0 9 * * *', timezone: 'Asia/Tokyo' }));
    expect(cron!.next_run_at).toBe('2026-03-11T00:00:00.000Z');
    expect(await t.engine.workflows.update(p, cron!.id, { interval_minutes: 120 })).toMatchObject({ cron_expression: null, interval_minutes: 120, next_run_at: '2026-03-10T12:00:00.000Z' });
  });

  it('lists with status, search, tags, sort and scope', async () => {
    await t.engine.workflows.create(p, search('Bravo', { tags: ['energy', 'prices'] }));
    const { workflow: alpha } = await t.engine.workflows.create(p, search('Alpha', { tags: ['energy'] }));
    await t.engine.workflows.create(p, search('Charlie', { description: 'watch wind turbines' }));
    await t.engine.workflows.update(p, alpha!.id, { status: 'paused' });
    const names = async (q: Record<string, unknown>) => (await t.engine.workflows.list(p, q)).data.map((w) => w.name);
    expect(await names({ sort_by: 'name', sort_order: 'asc' })).toEqual(['Alpha', 'Bravo', 'Charlie']);
    expect(await names({ status: 'paused' })).toEqual(['Alpha']);
    expect(await names({ tags: 'energy', sort_by: 'name', sort_order: 'asc' })).toEqual(['Alpha', 'Bravo']);
    expect(await names({ tags: 'energy,prices' })).toEqual(['Bravo']);
    expect(await names({ search: 'turbine' })).toEqual(['Charlie']);
    expect(await t.engine.workflows.list(p, { limit: 2 })).toMatchObject({ total: 3, limit: 2, offset: 0 });

    const other = t.engine.accounts.localPrincipal(await t.engine.accounts.ensureUser({ email: 'b@x.test' }));
    const org = await t.engine.accounts.createOrganization({ name: 'team', ownerUserId: p.userId });
    await t.engine.accounts.addMember(org.id, other.userId);
    expect(await t.engine.workflows.share(p, alpha!.id, { shared_with_org: true, organization_id: org.id })).toMatchObject({ shared_with_org: true, organization_id: org.id });
    expect((await t.engine.workflows.list(other, { scope: 'shared' })).data.map((w) => [w.name, w.access_level])).toEqual([['Alpha', 'org_viewer']]);
    expect((await t.engine.workflows.list(other, { scope: 'owned' })).total).toBe(0);
    expect((await failure(() => t.engine.workflows.update(other, alpha!.id, { name: 'x' }))).status).toBe(403); // workflow_read_only: shared with them to read
  });

  it('deletes a workflow so the scheduler never runs it again', async () => {
    const { workflow } = await t.engine.workflows.create(p, search('gone'));
    expect(await t.engine.workflows.delete(p, workflow!.id)).toEqual({ id: workflow!.id, deleted: true });
    expect(await t.engine.workflows.scheduler.tick()).toEqual([]);
    expect((await failure(() => t.engine.workflows.get(p, workflow!.id))).status).toBe(404);
  });

  it('records a failed execution and charges nothing when the search provider is down', async () => {
    await t.dispose();
    t = openTestEngine({ searxngUrl: 'http://127.0.0.1:9', searchProvider: 'searxng', allowPrivateNetwork: true });
    p = t.engine.accounts.localPrincipal(await t.engine.accounts.ensureUser({ email: 'a@x.test' }));
    const { workflow } = await t.engine.workflows.create(p, search('no search'));
    const before = await t.engine.credits.balance(p.userId);
    const r = await t.engine.workflows.execute(p, workflow!.id);
    expect(r.execution).toMatchObject({ status: 'failed', error: { code: 'search_provider_failed' }, credits: { consumed: 0 } });
    expect(await t.engine.credits.balance(p.userId)).toBe(before);
  });

  it('fails a workflow after 3 failed scheduled executions in a row and stops its patrols', async () => {
    await t.dispose();
    t = openTestEngine({ searxngUrl: 'http://127.0.0.1:9', searchProvider: 'searxng', allowPrivateNetwork: true });
    p = t.engine.accounts.localPrincipal(await t.engine.accounts.ensureUser({ email: 'a@x.test' }));
    const { workflow } = await t.engine.workflows.create(p, search('flaky', { interval_minutes: 10 }));
    for (let i = 0; i < 3; i++) {
      expect(await t.engine.workflows.scheduler.tick()).toHaveLength(1);
      t.clock.advance(10 * 60_000);
    }
    expect(await t.engine.workflows.get(p, workflow!.id)).toMatchObject({ status: 'failed', next_run_at: null, execution_count: 0 });
    expect(await t.engine.workflows.scheduler.tick()).toEqual([]);
    expect((await t.engine.workflows.update(p, workflow!.id, { status: 'active' })).next_run_at).toBe(t.clock.now().toISOString());
  });

  it('answers 402 on a manual run without credits', async () => {
    // 60 seeds at the extraction price of 2 credits a page: 120 against a balance of 100.
    const urls = Array.from({ length: 60 }, (_, i) => `http://x.test/p${i}`);
    const config = { urls, max_pages: 500, extraction_schema: { price: 'the listed price in dollars' } };
    const { workflow } = await t.engine.workflows.create(p, { name: 'big', mode: 'multi_step', interval_minutes: 60, steps: [{ id: 'c', type: 'crawl', config }] });
    expect((await failure(() => t.engine.workflows.execute(p, workflow!.id))).status).toBe(402);
    expect(await t.engine.workflows.execute(p, workflow!.id, { dry_run: true })).toMatchObject({ dry_run: true, estimate: { credits: 120, would_succeed: false } });
  });

  it('plans an ai_planned workflow within its budget, and marks an unplannable one plan_failed', async () => {
    const { workflow } = await t.engine.workflows.create(p, {
      name: 'planned',
      mode: 'ai_planned',
      intent: 'Track pricing changes from Acme and Globex for industrial solar inverters',
      max_credits_per_execution: 2,
      interval: '1 day',
    });
    expect(workflow!.status).toBe('active');
    expect(workflow!.estimated_credits_per_execution).toBeLessThanOrEqual(2);
    expect(workflow!.steps!.length).toBeGreaterThan(0);
    const poor = await t.engine.workflows.create(p, { name: 'poor', mode: 'ai_planned', intent: 'Track pricing changes for solar inverters', max_credits_per_execution: 0.5, interval: '1 day' });
    expect(poor.workflow).toMatchObject({ status: 'plan_failed', next_run_at: null });
    expect(poor.workflow!.status_reason).toContain('planning_budget_too_small');
  });

  it('answers an org viewer who patches, executes or deletes with 403 workflow_read_only, as sessions do', async () => {
    const { owner, colleague, outsider, orgId } = await sharingCast(t.engine);
    const { workflow } = await t.engine.workflows.create(owner, search('shared'));
    await t.engine.workflows.share(owner, workflow!.id, { shared_with_org: true, organization_id: orgId });
    expect(await rejectionCodeOf(() => t.engine.workflows.update(colleague, workflow!.id, { name: 'mine now' }))).toBe('403 workflow_read_only');
    expect(await rejectionCodeOf(() => t.engine.workflows.execute(colleague, workflow!.id))).toBe('403 workflow_read_only');
    expect(await rejectionCodeOf(() => t.engine.workflows.delete(colleague, workflow!.id))).toBe('403 workflow_read_only');
    expect(await rejectionCodeOf(() => t.engine.workflows.update(outsider, workflow!.id, { name: 'x' }))).toBe('404 workflow_not_found');
    expect((await t.engine.workflows.get(colleague, workflow!.id)).name).toBe('shared');
  });

  it('refuses a scheduled_for in the past with 400 scheduled_for_in_past', async () => {
    const past = new Date(t.clock.now().getTime() - 3_600_000).toISOString();
    const refused = await failure(() => t.engine.workflows.create(p, { name: 'late', workflow_type: 'search', operation_config: { query: 'x' }, scheduled_for: past }));
    expect([refused.status, refused.code]).toEqual([400, 'scheduled_for_in_past']);
    const soon = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
    const { workflow } = await t.engine.workflows.create(p, { name: 'soon', workflow_type: 'search', operation_config: { query: 'x' }, scheduled_for: soon });
    expect(workflow!.next_run_at).toBe(soon);
  });

  it('charges plan previews by preset and refuses them with 402 when short', async () => {
    const plan = await t.engine.workflows.plan(p, { intent: 'Alert me when Acme announces a new inverter release', preset: 'standard' });
    expect(plan.credits_consumed).toBe(30);
    expect(await t.engine.credits.balance(p.userId)).toBe(70);
    const refused = await failure(() => t.engine.workflows.plan(p, { intent: 'Alert me when Acme announces a new inverter release', preset: 'comprehensive' }));
    expect(refused.status).toBe(402);
    expect(refused.suggestions!.join(' ')).toMatch(/smaller preset/);
    expect(refused.suggestions!.join(' ')).not.toMatch(/max_pages|extraction_schema/);
    expect(await t.engine.credits.balance(p.userId)).toBe(70);
  });

  it('plans asynchronously on the job queue and reports the result on polling', async () => {
    const job = await t.engine.workflows.planAsync(p, { intent: 'Monitor Acme and Globex earnings filings every quarter', preset: 'quick' });
    expect(job.status).toBe('running');
    await t.engine.workflows.settled();
    const done = await t.engine.workflows.planJob(p, job.id);
    expect(done).toMatchObject({ status: 'completed', result: { planning_profile: 'fork_join_dag', credits_consumed: 10 } });
    expect((await t.engine.jobs.get(job.id))?.status).toBe('succeeded');
    expect(await t.engine.credits.balance(p.userId)).toBe(90);
  });

  it('records a failed plan job, without a charge, when the budget cannot pay one search', async () => {
    const job = await t.engine.workflows.planAsync(p, { intent: 'Monitor Acme earnings filings every quarter', planning_budget: 0.5, preset: 'quick' });
    await t.engine.workflows.settled();
    expect(await t.engine.workflows.planJob(p, job.id)).toMatchObject({ status: 'failed', result: null, error: { code: 'planning_budget_too_small' } });
    expect(await t.engine.credits.balance(p.userId)).toBe(100);
  });

  it('assesses intents for free, and past 10 an hour answers from the heuristic with rate_limited', async () => {
    for (let i = 0; i < 10; i++) {
      const a = await t.engine.workflows.assessIntent(p, { intent: 'news about stuff and things' });
      expect(a.fallback_reason_code).toBeUndefined();
    }
    const limited = await t.engine.workflows.assessIntent(p, { intent: 'news about stuff and things' });
    expect(limited).toMatchObject({ assessment_source: 'heuristic', fallback_reason_code: 'rate_limited', assessment: 'vague' });
    expect(await t.engine.credits.balance(p.userId)).toBe(100);
    expect((await failure(() => t.engine.workflows.assessIntent(p, { intent: 'short', timeout: 10 }))).status).toBe(400);
  });
});
