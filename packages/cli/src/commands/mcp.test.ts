import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createEngine, type Engine } from '@wvr/engine';
import { startServer, type RunningServer } from '@wvr/server';

const bin = fileURLToPath(new URL('../bin.ts', import.meta.url));
let data: string;

beforeAll(() => {
  data = mkdtempSync(join(tmpdir(), 'wvr-mcp-'));
});
afterAll(() => rmSync(data, { recursive: true, force: true }));

async function stdioClient(args: string[]): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', bin, ...args, 'mcp'],
    env: { ...(process.env as Record<string, string>), WVR_API_URL: '', WVR_API_TOKEN: '', WVR_USER: '' },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'wvr-stdio-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

describe('wvr mcp (stdio)', () => {
  it('serves the toolset over the local engine as the --user account', async () => {
    const client = await stdioClient(['--data', data, '--user', 'stdio@x.test']);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['credits_balance', 'user_me']));
      const me = await client.callTool({ name: 'user_me', arguments: {} });
      expect(me.structuredContent).toMatchObject({ email: 'stdio@x.test', token: { id: 'local' } });
      const bad = await client.callTool({ name: 'credits_balance', arguments: { extra: 1 } });
      expect(bad).toMatchObject({ isError: true, structuredContent: { code: 'unknown_field' } });
    } finally {
      await client.close();
    }
  });

  describe('with --remote', () => {
    let engine: Engine;
    let server: RunningServer;
    let token: string;
    beforeAll(async () => {
      engine = createEngine({ dbPath: join(data, 'remote.db'), secret: 'test' });
      token = (await engine.tokens.issue((await engine.accounts.ensureUser({ email: 'remote@x.test' })).id, { name: 'mcp', scopes: ['search'] })).token;
      server = await startServer({ engine, port: 0 });
    });
    afterAll(async () => {
      await server.close();
      await engine.close();
    });

    it('relays tool calls to the server’s /mcp endpoint with the token', async () => {
      const client = await stdioClient(['--remote', server.url, '--token', token]);
      try {
        const me = await client.callTool({ name: 'user_me', arguments: {} });
        expect(me.structuredContent).toMatchObject({ email: 'remote@x.test', token: { scopes: ['search'] } });
      } finally {
        await client.close();
      }
    });
  });
});
