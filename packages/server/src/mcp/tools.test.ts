import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createEngine, type Engine } from '@wvr/engine';
import { startLocalWeb, type LocalWeb } from '@wvr/testkit';
import { startServer, type RunningServer } from '../app.js';
import { MCP_TOOLS } from './tools.js';

let web: LocalWeb;
let engine: Engine;
let server: RunningServer;
let full: string;
let searchOnly: string;
let orgId: string;

beforeAll(async () => {
  web = await startLocalWeb();
  engine = createEngine({ dbPath: ':memory:', secret: 'test', allowPrivateNetwork: true, searxngUrl: web.search, searchProvider: 'searxng' });
  const user = await engine.accounts.ensureUser({ email: 'agent@x.test' });
  orgId = (await engine.accounts.createOrganization({ name: 'Research', ownerUserId: user.id })).id;
  full = (await engine.tokens.issue(user.id, { name: 'agent' })).token;
  searchOnly = (await engine.tokens.issue(user.id, { name: 'narrow', scopes: ['search'] })).token;
  server = await startServer({ engine, port: 0 });
});
afterAll(async () => {
  await server.close();
  await engine.close();
  await web.close();
});

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'wvr-tools-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

type Structured = Record<string, unknown>;
async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Structured> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError, `${name}: ${JSON.stringify(result.structuredContent)}`).toBeFalsy();
  return result.structuredContent as Structured;
}

describe('the MCP toolset', () => {
  it('lists every tool: thirteen for monitors and the account, eleven for research', async () => {
    const client = await connect(full);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(MCP_TOOLS.map((t) => t.name).sort());
    expect(tools).toHaveLength(24);
    expect(tools.find((t) => t.name === 'monitors_update')!.inputSchema.properties).toHaveProperty('id');
    await client.close();
  });

  it('runs a monitor’s whole life through the tools', async () => {
    const client = await connect(full);
    const created = await call(client, 'monitors_create', {
      name: 'Surprises',
      workflow_type: 'search',
      operation_config: { query: 'surprising', max_results: 10 },
      interval: '1 day',
    });
    const id = (created.workflow as { id: string }).id;
    for (const version of [1, 2]) {
      web.setVersion(version);
      await engine.workflows.execute(engine.accounts.localPrincipal((await engine.accounts.getUserByEmail('agent@x.test'))!), id);
    }

    expect((await call(client, 'monitors_list')).total).toBe(1);
    expect(await call(client, 'monitors_get', { id })).toMatchObject({ id, name: 'Surprises' });
    expect(await call(client, 'monitors_update', { id, name: 'Surprises, daily', status: 'paused' })).toMatchObject({ status: 'paused' });
    // The two manual runs, and the worker's first scheduled run when it was claimed before them (executions run one at a time).
    expect((await call(client, 'monitors_list_reports', { id, limit: 1 })).total).toBeGreaterThanOrEqual(2);
    const chronicle = await call(client, 'monitors_chronicle', { id });
    expect((chronicle.entries as unknown[]).length).toBeGreaterThanOrEqual(2);
    expect(await call(client, 'monitors_share', { id, shared_with_org: true, organization_id: orgId })).toMatchObject({ shared_with_org: true });
    expect(await call(client, 'monitors_digest')).toMatchObject({ monitors_total: 1 });
    // As many reports as the list holds: the scheduled first run may be among them (see above).
    const recommendations = await call(client, 'monitors_expansion_recommendations', { id });
    expect(recommendations).toMatchObject({ workflow_id: id });
    expect(recommendations.based_on_reports).toBeGreaterThanOrEqual(2);
    expect(await call(client, 'credits_balance')).toMatchObject({ plan: 'free' });
    expect(await call(client, 'user_me')).toMatchObject({ email: 'agent@x.test', organizations: [{ id: orgId, name: 'Research' }] });
    const brand = await call(client, 'brand_design_system', { url: `${web.catalogue}/` });
    expect(brand).toMatchObject({ url: `${web.catalogue}/`, credits: { consumed: 1 } });
    const map = await call(client, 'map', { url: `${web.docs}/docs`, url_patterns: ['/docs/install*'] });
    expect(map).toMatchObject({ credits: { consumed: 1 } });
    expect((map.urls as { url: string }[]).map((u) => u.url)).toContain(`${web.docs}/docs/install`);
    expect(await call(client, 'monitors_delete', { id })).toMatchObject({ id });
    expect((await call(client, 'monitors_list')).total).toBe(0);
    await client.close();
  });

  it('returns bad input as a tool error with the spec’s body and field paths', async () => {
    const client = await connect(full);
    const result = await client.callTool({ name: 'monitors_create', arguments: { name: 'x'.repeat(300), workflow_type: 'search', operation_config: { query: 'q' }, interval: '1 hour' } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: 'validation_error', code: 'name_too_long', details: { fields: [expect.objectContaining({ path: 'name' })] } });
    const badId = await client.callTool({ name: 'monitors_get', arguments: { id: 'nope' } });
    expect(badId.structuredContent).toMatchObject({ error: 'validation_error' });
    await client.close();
  });

  it('refuses tools whose scope the token lacks, as a tool error', async () => {
    const client = await connect(searchOnly);
    for (const [name, args] of [
      ['monitors_list', {}],
      ['brand_design_system', { url: `${web.catalogue}/` }],
      ['map', { url: `${web.catalogue}/` }],
      ['read_page', { url: `${web.catalogue}/` }],
      ['sessions_context', { id: 'any' }],
    ] as const) {
      const result = await client.callTool({ name, arguments: args });
      expect(result).toMatchObject({ isError: true, structuredContent: { error: 'permission_error', code: 'scope_missing' } });
    }
    expect(await call(client, 'user_me')).toMatchObject({ token: { scopes: ['search'] } });
    await client.close();
  });
});
