import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createEngine, type Engine } from '@wvr/engine';
import { startServer, type RunningServer } from '../app.js';

let engine: Engine;
let server: RunningServer;
let token: string;

beforeEach(async () => {
  engine = createEngine({ dbPath: ':memory:', secret: 'test' });
  const user = await engine.accounts.ensureUser({ email: 'agent@x.test' });
  token = (await engine.tokens.issue(user.id, { name: 'agent', scopes: ['search', 'workflow'] })).token;
  server = await startServer({ engine, port: 0, mcp: { authorizationServers: ['https://auth.example.test'] } });
});
afterEach(async () => {
  await server.close();
  await engine.close();
});

async function connect(bearer = token): Promise<Client> {
  const client = new Client({ name: 'wvr-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${bearer}` } },
  });
  await client.connect(transport);
  return client;
}

describe('MCP over Streamable HTTP', () => {
  it('lists the account tools with their input schemas', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['credits_balance', 'user_me']));
    expect(tools.find((t) => t.name === 'user_me')).toMatchObject({ inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } });
    await client.close();
  });

  it('answers user_me and credits_balance for the token’s account', async () => {
    const client = await connect();
    const me = await client.callTool({ name: 'user_me', arguments: {} });
    expect(me.isError).toBeFalsy();
    expect(me.structuredContent).toMatchObject({ email: 'agent@x.test', plan: 'free', token: { scopes: ['search', 'workflow'] } });
    const credits = await client.callTool({ name: 'credits_balance', arguments: {} });
    expect(credits.structuredContent).toMatchObject({ balance: 100, plan: 'free' });
    await client.close();
  });

  it('returns bad input as a tool error carrying the spec’s error body', async () => {
    const client = await connect();
    const result = await client.callTool({ name: 'user_me', arguments: { nonsense: true } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: 'validation_error', code: 'unknown_field' });
    const unknown = await client.callTool({ name: 'no_such_tool', arguments: {} });
    expect(unknown.structuredContent).toMatchObject({ code: 'unknown_tool' });
    await client.close();
  });

  it('refuses a missing or revoked token with 401 and points at the protected-resource metadata', async () => {
    const res = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${server.url}/.well-known/oauth-protected-resource"`);
    expect(await res.json()).toMatchObject({ error: 'authentication_error', code: 'token_missing' });
    await expect(connect('wvr_not.a.token')).rejects.toThrow();
  });

  it('publishes OAuth protected-resource metadata naming the authorization server', async () => {
    const res = await fetch(`${server.url}/.well-known/oauth-protected-resource`);
    expect(await res.json()).toEqual({
      resource: `${server.url}/mcp`,
      authorization_servers: ['https://auth.example.test'],
      scopes_supported: ['search', 'crawl', 'workflow', 'sessions'],
      bearer_methods_supported: ['header'],
      resource_name: 'wvr',
      resource_documentation: `${server.url}/v1/openapi.json`,
    });
  });
  it('counts every tool call of a JSON-RPC batch against the rate limit', async () => {
    const free = await engine.accounts.ensureUser({ email: 'batch@x.test' });
    const bearer = (await engine.tokens.issue(free.id, { name: 'batch' })).token;
    const headers = { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const before = await fetch(`${server.url}/v1/me`, { headers });
    expect(before.headers.get('x-ratelimit-remaining')).toBe('99');

    const batch = Array.from({ length: 100 }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'user_me', arguments: {} } }));
    const res = await fetch(`${server.url}/mcp`, { method: 'POST', headers, body: JSON.stringify(batch) });
    expect(res.status).toBe(200);
    const answers = (await res.json()) as { result: { isError?: boolean; structuredContent: { code?: string } } }[];
    expect(answers).toHaveLength(100);
    const refused = answers.filter((a) => a.result.isError);
    expect(answers.length - refused.length).toBe(99);
    expect(refused.map((a) => a.result.structuredContent.code)).toEqual(['rate_limit_exceeded']);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    expect((await fetch(`${server.url}/v1/me`, { headers })).status).toBe(429);
  });
});
