import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestServer, type TestServer } from '../testing.js';

let t: TestServer;
let token: string;
let searchOnly: string;

beforeEach(async () => {
  t = await openTestServer();
  const user = await t.engine.accounts.ensureUser({ email: 'w@x.test' });
  token = (await t.engine.tokens.issue(user.id, { name: 't', scopes: ['workflow'] })).token;
  searchOnly = (await t.engine.tokens.issue(user.id, { name: 's', scopes: ['search'] })).token;
});
afterEach(() => t.close());

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, bearer = token) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${bearer}` }, ...(payload === undefined ? {} : { payload: payload as object }) });

const pipeline = { name: 'merge', mode: 'multi_step', interval: '1 hour', steps: [{ id: 'm', type: 'aggregate', config: {} }] };

describe('workflow routes', () => {
  it('creates, lists, shows, runs and deletes a workflow', async () => {
    const created = await call('POST', '/v1/workflows', { ...pipeline, tags: ['demo'] });
    expect(created.statusCode).toBe(201);
    const id = created.json().workflow.id;
    expect((await call('GET', '/v1/workflows?tags=demo&sort_by=name')).json()).toMatchObject({ total: 1, limit: 10, offset: 0 });
    const run = await call('POST', `/v1/workflows/${id}/execute`, {});
    expect(run.statusCode).toBe(200);
    expect(run.json().execution).toMatchObject({ status: 'completed', condition_met: false, credits: { consumed: 0 }, result_changes: { net_new_count: 0 } });
    expect((await call('GET', `/v1/workflows/${id}`)).json().recent_executions).toHaveLength(1);
    expect((await call('GET', `/v1/workflows/${id}/executions?limit=1`)).json()).toMatchObject({ total: 1, limit: 1 });
    expect((await call('DELETE', `/v1/workflows/${id}`)).json()).toEqual({ id, deleted: true });
    expect((await call('GET', `/v1/workflows/${id}`)).statusCode).toBe(404);
  });

  it('refuses a private notification webhook_url at creation', async () => {
    for (const hook of ['http://127.0.0.1/hook', 'http://[::1]:8080/', 'http://169.254.169.254/latest/meta-data/']) {
      const res = await call('POST', '/v1/workflows', { ...pipeline, notification_config: { webhook_url: hook } });
      expect([res.statusCode, res.json().code, res.json().details.fields[0].path], hook).toEqual([400, 'webhook_url_not_allowed', 'notification_config.webhook_url']);
    }
    const local = await call('POST', '/v1/workflows', { ...pipeline, notification_config: { webhook_url: 'http://localhost/hook' } });
    expect(local.json().code).toBe('webhook_url_not_allowed');
  });

  it('answers 400 with details for a dependency cycle and 409 for a forbidden status move', async () => {
    const cycle = await call('POST', '/v1/workflows', { ...pipeline, steps: [{ id: 'a', type: 'aggregate', depends_on: ['a'], config: {} }] });
    expect(cycle.statusCode).toBe(400);
    expect(cycle.json()).toMatchObject({ error: 'validation_error', code: 'steps_cycle', details: { fields: [expect.objectContaining({ path: 'steps' })] } });
    const id = (await call('POST', '/v1/workflows', pipeline)).json().workflow.id;
    await call('PATCH', `/v1/workflows/${id}`, { status: 'archived' });
    const move = await call('PATCH', `/v1/workflows/${id}`, { status: 'active' });
    expect(move.statusCode).toBe(409);
    expect(move.json()).toMatchObject({ error: 'conflict', code: 'workflow_transition_invalid', details: { from: 'archived', to: 'active' } });
  });

  it('needs the workflow scope', async () => {
    expect((await call('GET', '/v1/workflows', undefined, searchOnly)).statusCode).toBe(403);
  });

  it('assesses intents, plans with 402 when short, and plans asynchronously', async () => {
    const assessed = await call('POST', '/v1/workflows/assess-intent', { intent: 'Alert me when Acme raises the price of its X2 inverter above 500 dollars' });
    expect(assessed.json()).toMatchObject({ assessment: 'specific', assessment_source: 'heuristic', is_assessed: true });
    expect((await call('POST', '/v1/workflows/assess-intent', { intent: 'too short' })).statusCode).toBe(400);
    const plan = await call('POST', '/v1/workflows/plan', { intent: 'Alert me about new releases of Acme inverters', preset: 'quick' });
    expect(plan.json()).toMatchObject({ credits_consumed: 10, planning_profile: expect.any(String), recommended_steps: expect.any(Array) });
    expect((await call('POST', '/v1/workflows/plan', { intent: 'Alert me about new releases of Acme inverters', preset: 'comprehensive' })).statusCode).toBe(402);
    const job = await call('POST', '/v1/workflows/plan/async', { intent: 'Alert me about new releases of Acme inverters', preset: 'quick' });
    expect(job.statusCode).toBe(202);
    await t.engine.workflows.settled();
    expect((await call('GET', `/v1/workflows/plan/async/${job.json().id}`)).json()).toMatchObject({ status: 'completed', result: { credits_consumed: 10 } });
  });
});
