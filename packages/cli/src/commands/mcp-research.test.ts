import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createEngine, type Engine } from '@wvr/engine';
import { startServer, type RunningServer } from '@wvr/server';
import { startLocalWeb, type LocalWeb } from '@wvr/testkit';

const bin = fileURLToPath(new URL('../bin.ts', import.meta.url));
const RESEARCH_TOOLS = ['search', 'search_quick', 'read_page', 'crawl', 'crawl_status', 'crawl_progress', 'extract', 'ask', 'sessions_create', 'sessions_context'];

let web: LocalWeb;
let data: string;
let engine: Engine;
let server: RunningServer;
let token: string;

beforeAll(async () => {
  web = await startLocalWeb({ sizes: { products: 50, articles: 10, docsDepth: 2 } });
  data = mkdtempSync(join(tmpdir(), 'wvr-mcp-research-'));
  engine = createEngine({ dbPath: join(data, 'http.db'), secret: 'test', allowPrivateNetwork: true, searxngUrl: web.search, searchProvider: 'searxng' });
  token = (await engine.tokens.issue((await engine.accounts.ensureUser({ email: 'http@x.test' })).id, { name: 'agent' })).token;
  server = await startServer({ engine, port: 0, worker: false });
});
afterAll(async () => {
  await server.close();
  await engine.close();
  await web.close();
  rmSync(data, { recursive: true, force: true });
});

async function overHttp(): Promise<Client> {
  const client = new Client({ name: 'wvr-research-http', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

async function overStdio(): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', bin, '--data', join(data, 'stdio'), '--user', 'stdio@x.test', 'mcp'],
    env: { ...(process.env as Record<string, string>), WVR_API_URL: '', WVR_API_TOKEN: '', WVR_USER: '', WVR_SEARXNG_URL: web.search, WVR_SEARCH_PROVIDER: 'searxng' },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'wvr-research-stdio', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

type Structured = Record<string, any>;
async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Structured> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError, `${name}: ${JSON.stringify(result.structuredContent)}`).toBeFalsy();
  return result.structuredContent as Structured;
}

describe.each([
  ['Streamable HTTP (/mcp)', overHttp],
  ['stdio (wvr mcp)', overStdio],
])('the research tools over %s', (_transport, connect) => {
  it('lists them and runs each one against the local web', async () => {
    const client = await connect();
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(RESEARCH_TOOLS));
      expect(tools.find((t) => t.name === 'read_page')!.inputSchema).toMatchObject({ properties: { url: { type: 'string' } }, required: ['url'] });

      const session = await call(client, 'sessions_create', { name: 'Orbit research', intent_context: 'How to install and configure Orbit' });
      expect(session).toMatchObject({ name: 'Orbit research', status: 'active' });

      const quick = await call(client, 'search_quick', { query: 'orbit install', max_results: 5 });
      expect(quick.results.length).toBeGreaterThan(0);
      const full = await call(client, 'search', { query: 'orbit configure', max_results: 5, session_id: session.id, processing_mode: 'sync' });
      expect(full).toMatchObject({ status: 'completed', query: 'orbit configure' });
      expect(full.results.length).toBeGreaterThan(0);

      const page = await call(client, 'read_page', { url: `${web.docs}/docs` });
      expect(page).toMatchObject({ read: true, url: `${web.docs}/docs`, status_code: 200, credits_used: 1 });
      expect(page.markdown).toContain('#');
      expect(page.title).toMatch(/Orbit/);
      expect(page).not.toHaveProperty('stats');

      const crawl = await call(client, 'crawl', { urls: [`${web.docs}/docs`], max_pages: 3, expansion: 'internal', processing_mode: 'sync' });
      expect(crawl).toMatchObject({ status: 'completed', stats: { pages_crawled: 3 } });
      const status = await call(client, 'crawl_status', { id: crawl.id, documents: 'none' });
      expect(status).toMatchObject({ id: crawl.id, status: 'completed', documents: [], documents_total: 3 });
      const progress = await call(client, 'crawl_progress', { id: crawl.id, best_pages: 2 });
      expect(progress).toMatchObject({ id: crawl.id, status: 'completed', documents_total: 3, stats: { pages_crawled: 3 } });
      expect(progress.best_pages).toHaveLength(2);
      expect(progress.best_pages[0]).not.toHaveProperty('markdown');

      const extracted = await call(client, 'extract', { url: `${web.docs}/docs`, extraction_schema: { title: 'the title of the documentation page' } });
      expect(extracted.extracted_data.title).toBe('Documentation');
      expect(extracted.extraction_metadata).toMatchObject({ fields_requested: 1, fields_extracted: 1 });

      const answer = await call(client, 'ask', { question: 'How do I install Orbit?', depth: 'quick' });
      expect(answer.answer.length).toBeGreaterThan(0);
      expect(answer.sources.length).toBeGreaterThan(0);

      const context = await call(client, 'sessions_context', { id: session.id });
      expect(context).toMatchObject({ id: session.id });
      expect(JSON.stringify(context)).toContain('orbit configure');

      const refused = await client.callTool({ name: 'read_page', arguments: { url: 'not a url' } });
      expect(refused).toMatchObject({ isError: true, structuredContent: { error: 'validation_error', code: 'url_invalid_format' } });
    } finally {
      await client.close();
    }
  }, 120_000);
});
