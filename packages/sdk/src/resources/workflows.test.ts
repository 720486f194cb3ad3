import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paginate, WvrApiError } from '../index.js';
import { startTestApi, type TestApi } from '../testing.js';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi({ email: 'sdk-wf@x.test' });
});
afterAll(() => api.close());

describe('sdk workflows', () => {
  it('creates, pages through, runs, pauses and resumes workflows', async () => {
    const client = api.client;
    const { workflow } = await client.workflows.create({ name: 'Merge', mode: 'multi_step', interval_minutes: 30, steps: [{ id: 'm', type: 'aggregate', config: {} }] });
    await client.workflows.create({ name: 'Watch', workflow_type: 'search', operation_config: { query: 'inverter prices' }, cron_expression: '0 9 * * 1', timezone: 'Europe/Berlin' });
    const names: string[] = [];
    for await (const w of paginate(client.workflows.list, { limit: 1, sort_by: 'name' as const, sort_order: 'asc' as const })) names.push(w.name);
    expect(names).toEqual(['Merge', 'Watch']);
    const run = await client.workflows.execute(workflow!.id);
    expect(run.execution?.status).toBe('completed');
    expect((await client.workflows.executions(workflow!.id)).total).toBe(1);
    expect((await client.workflows.pause(workflow!.id)).status).toBe('paused');
    expect((await client.workflows.resume(workflow!.id)).status).toBe('active');
  });

  it('assesses for free, charges a quick plan 10 credits and surfaces the next 402 as WvrApiError', async () => {
    const client = api.client;
    expect((await client.workflows.assessIntent({ intent: 'things and stuff happening' })).assessment).toBe('vague');
    expect((await client.workflows.plan({ intent: 'Watch Acme inverter releases', preset: 'quick' })).credits_consumed).toBe(10);
    const error = await client.workflows.plan({ intent: 'Watch Acme inverter releases', preset: 'comprehensive' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WvrApiError);
    expect((error as WvrApiError).status).toBe(402);
  });
});
