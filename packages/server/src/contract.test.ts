import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { ALL_SCOPES, createEngine, manualClock, type Engine } from '@wvr/engine';
import { createServer } from './app.js';
import { buildOpenApiDocument } from './openapi.js';
import { routes } from './routes/index.js';
import { fieldCases, propertiesOf } from './contract-cases.js';

// The 429 + Retry-After contract is covered in app.test.ts ("answers 429 with Retry-After past the free plan's hourly limit").

type Json = Record<string, unknown>;
const doc = buildOpenApiDocument(routes) as Json;
const operation = (method: string, path: string): Json =>
  ((doc.paths as Record<string, Record<string, Json>>)[`/v1${path.replace(/:(\w+)/g, '{$1}')}`] ?? {})[method.toLowerCase()] ?? {};
const bodySchemaOf = (method: string, path: string): Json | undefined =>
  ((operation(method, path).requestBody as Json | undefined)?.content as Record<string, { schema: Json }> | undefined)?.['application/json']
    ?.schema;

const UNKNOWN_ID = '0b6f3c1e-8a4d-4c2b-9e7f-1a2b3c4d5e6f';
const SEED = 'http://127.0.0.1:9/';
const PIPELINE = { name: 'merge', mode: 'multi_step', interval: '1 hour', steps: [{ id: 'm', type: 'aggregate', config: {} }] };

let dir: string;
let engine: Engine;
let app: FastifyInstance;
let tokenA: string;
let tokenB: string;
/** Resources of each kind: the caller's own, and another user's. Keyed by the route prefix that addresses them. */
const own: Record<string, string> = {};
const foreign: Record<string, string> = {};

const send = (token: string, options: InjectOptions) =>
  app.inject({ ...options, headers: { authorization: `Bearer ${token}`, ...options.headers } });

async function createResources(token: string, into: Record<string, string>) {
  const make = async (url: string, payload: object) => {
    const res = await send(token, { method: 'POST', url, payload });
    expect(res.statusCode, `${url} ${res.body}`).toBeLessThan(300);
    const body = res.json() as { id?: string; workflow?: { id: string } };
    return (body.id ?? body.workflow?.id)!;
  };
  into['/tokens'] = await make('/v1/tokens', { name: 'spare' });
  into['/sessions'] = await make('/v1/sessions', { name: 'mine' });
  into['/workflows'] = await make('/v1/workflows', PIPELINE);
  into['/workflows/plan/async'] = await make('/v1/workflows/plan/async', { intent: 'Track pricing changes of CRM vendors' });
  into['/search/jobs'] = await make('/v1/searches', { query: 'tides' });
  into['/crawls'] = await make('/v1/crawls', { urls: [SEED], max_pages: 1 });
  into['/public/sessions'] = into['/sessions']!;
  into['/public/crawls'] = into['/crawls']!;
}

/** Bodies that pass validation, so the ownership check is what answers. */
const VALID_BODIES: Record<string, object> = {
  'PATCH /sessions/:id': { name: 'renamed' },
  'POST /sessions/:id/share': { public_share: true },
  'POST /sessions/:id/search': { query: 'tides' },
  'POST /sessions/:id/crawl': { urls: [SEED], max_pages: 1 },
  'POST /sessions/:id/ask': { question: 'What causes tides?' },
  'PATCH /workflows/:id': { name: 'renamed' },
  'POST /workflows/:id/execute': {},
  'POST /workflows/:id/share': { public_share: true },
  'POST /search/jobs/:id/share': { public_share: true },
  'POST /crawls/:id/share': { public_share: true },
};

/** The id of the resource a route with `:id` addresses, by its longest matching prefix. */
const idFor = (ids: Record<string, string>, path: string): string => {
  const prefix = Object.keys(ids)
    .filter((p) => path.startsWith(`${p}/:id`))
    .sort((a, b) => b.length - a.length)[0];
  if (!prefix) throw new Error(`no resource for ${path}`);
  return ids[prefix]!;
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wvr-contract-'));
  engine = createEngine({
    dbPath: join(dir, 'wvr.db'),
    clock: manualClock('2026-03-10T12:00:00Z'),
    secret: 'test',
    allowPrivateNetwork: true,
    fetchLimits: { connectTimeoutMs: 500, headersTimeoutMs: 500 },
  });
  const a = await engine.accounts.ensureUser({ email: 'a@x.test' });
  const b = await engine.accounts.ensureUser({ email: 'b@x.test' });
  await engine.credits.grant(a.id, 1000);
  await engine.credits.grant(b.id, 1000);
  // Searches on an empty local index are refused (409 search_index_empty); one public page makes them searchable.
  await engine.search.index.upsert({ url: 'http://pub.test/tides', title: 'Tides', text: 'Tides follow the Moon.', ownerUserId: null, fetchedAt: '2026-03-10T12:00:00Z' });
  tokenA = (await engine.tokens.issue(a.id, { name: 'a', scopes: [...ALL_SCOPES] })).token;
  tokenB = (await engine.tokens.issue(b.id, { name: 'b', scopes: [...ALL_SCOPES] })).token;
  app = await createServer({ engine, rateLimits: false });
  await createResources(tokenA, own);
  await createResources(tokenB, foreign);
});
afterAll(async () => {
  await app.close();
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Problem {
  request: string;
  status: number;
  body: string;
  why: string;
}

/** Checks the universal contract and returns what broke it, so one run lists every failure. */
function contractProblems(request: string, res: LightMyRequestResponse): Problem[] {
  const problem = (why: string): Problem[] => [{ request, status: res.statusCode, body: res.body.slice(0, 300), why }];
  if (res.statusCode >= 500) return problem('5xx');
  if (res.statusCode < 400) return [];
  let body: Json;
  try {
    body = res.json();
  } catch {
    return problem('4xx body is not JSON');
  }
  for (const key of ['error', 'message', 'code'] as const) if (typeof body[key] !== 'string') return problem(`4xx body lacks ${key}`);
  return [];
}

const fieldsNamed = (res: LightMyRequestResponse): string[] =>
  (((res.json() as Json).details as Json | undefined)?.fields as { path: string }[] | undefined)?.map((f) => f.path) ?? [];

/** What a refused request must leave untouched: credits and every kind of resource the caller owns. */
async function holdings(token: string): Promise<Record<string, unknown>> {
  const get = async (url: string) => (await send(token, { method: 'GET', url })).json() as Json;
  const credits = await get('/v1/credits');
  const totals: Record<string, unknown> = { balance: credits.balance, reserved: credits.reserved };
  for (const url of ['/v1/sessions', '/v1/workflows', '/v1/crawls', '/v1/search/jobs']) totals[url] = (await get(url)).total;
  totals.tokens = ((await get('/v1/tokens')).data as unknown[]).length;
  return totals;
}

const PREFIXES = ['/v1', '/api/v1'];
const withId = (path: string, id: string) => path.replace(':id', id);
const describeRequest = (o: InjectOptions) => `${o.method} ${String(o.url)} ${typeof o.payload === 'string' ? o.payload.slice(0, 60) : JSON.stringify(o.payload ?? null).slice(0, 80)}`;

describe('API contract: bad input never breaks the server', () => {
  it('answers malformed, array, empty and bodiless requests on every route with a 4xx in the error shape, never a 5xx', async () => {
    const problems: Problem[] = [];
    for (const prefix of PREFIXES) {
      for (const route of routes) {
        if (route.method === 'GET') continue;
        const url = prefix + withId(route.path, UNKNOWN_ID);
        const raw = (payload: string | undefined): InjectOptions => ({
          method: route.method,
          url,
          payload,
          headers: { 'content-type': 'application/json' },
        });
        for (const options of [raw('{"query": '), raw('[1, 2]'), raw(''), raw('null'), raw('"text"'), raw('42')]) {
          const res = await send(tokenA, options);
          problems.push(...contractProblems(describeRequest(options), res));
          if (route.body && res.statusCode < 400) problems.push({ request: describeRequest(options), status: res.statusCode, body: res.body.slice(0, 200), why: 'accepted a non-object body' });
        }
        if (route.body) {
          const options: InjectOptions = { method: route.method, url };
          const res = await send(tokenA, options);
          problems.push(...contractProblems(`${describeRequest(options)} (no body)`, res));
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('answers a wrong-typed, out-of-bounds or unknown body field with 400 naming that field', async () => {
    const problems: Problem[] = [];
    let checked = 0;
    const before = await holdings(tokenA);
    for (const route of routes) {
      const schema = bodySchemaOf(route.method, route.path);
      if (!schema) continue;
      const url = `/v1${route.path.includes(':id') ? withId(route.path, idFor(own, route.path)) : route.path}`;
      const cases = Object.entries(propertiesOf(doc, schema)).flatMap(([field, s]) => fieldCases(doc, field, s));
      checked += cases.length;
      for (const c of cases) {
        const options: InjectOptions = { method: route.method, url, payload: c.payload };
        const res = await send(tokenA, options);
        const request = describeRequest(options);
        problems.push(...contractProblems(request, res));
        if (res.statusCode !== 400) {
          problems.push({ request, status: res.statusCode, body: res.body.slice(0, 200), why: 'expected 400' });
          continue;
        }
        if (!fieldsNamed(res).some((p) => p === c.path || p.startsWith(`${c.path}.`))) {
          problems.push({ request, status: 400, body: res.body.slice(0, 300), why: `details.fields does not name ${c.path}` });
        }
      }
      const unknown = await send(tokenA, { method: route.method, url, payload: { zz_unknown: 1 } });
      if (unknown.statusCode !== 400 || !JSON.stringify(unknown.json().details ?? {}).includes('unknown_field')) {
        problems.push({ request: `${route.method} ${url} zz_unknown`, status: unknown.statusCode, body: unknown.body.slice(0, 300), why: 'expected 400 unknown_field' });
      }
    }
    expect(checked).toBeGreaterThan(1000);
    expect(await holdings(tokenA)).toEqual(before);
    expect(problems).toEqual([]);
  });

  it('answers non-uuid and unknown-uuid ids with 4xx, and unknown uuids with 404 <resource>_not_found', async () => {
    const problems: Problem[] = [];
    for (const prefix of PREFIXES) {
      for (const route of routes.filter((r) => r.path.includes(':id'))) {
        for (const id of ['not-a-uuid', UNKNOWN_ID, '%20', 'a'.repeat(300)]) {
          const options: InjectOptions = { method: route.method, url: prefix + withId(route.path, id), ...(route.body ? { payload: {} } : {}) };
          const res = await send(tokenA, options);
          const request = describeRequest(options);
          problems.push(...contractProblems(request, res));
          if (res.statusCode < 400) problems.push({ request, status: res.statusCode, body: res.body.slice(0, 200), why: 'accepted a missing id' });
          if (id === UNKNOWN_ID && res.statusCode !== 400) {
            const body = res.json() as Json;
            if (res.statusCode !== 404 || body.error !== 'not_found' || !/^[a-z_]+_not_found$/.test(String(body.code)) || body.code === 'route_not_found') {
              problems.push({ request, status: res.statusCode, body: res.body.slice(0, 200), why: 'expected 404 <resource>_not_found' });
            }
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('answers another user’s resource of every kind with 404 and none of its data', async () => {
    const problems: Problem[] = [];
    for (const route of routes.filter((r) => r.path.includes(':id'))) {
      const id = idFor(foreign, route.path);
      const payload = VALID_BODIES[`${route.method} ${route.path}`];
      if (route.body && !payload) throw new Error(`no valid body for ${route.method} ${route.path}`);
      const options: InjectOptions = { method: route.method, url: `/v1${withId(route.path, id)}`, ...(payload ? { payload } : {}) };
      const res = await send(tokenA, options);
      const request = describeRequest(options);
      problems.push(...contractProblems(request, res));
      if (res.statusCode !== 404 || res.json().error !== 'not_found') problems.push({ request, status: res.statusCode, body: res.body.slice(0, 200), why: 'expected 404' });
    }
    const session = foreign['/sessions'];
    const viaBody: InjectOptions[] = [
      { method: 'POST', url: '/v1/search', payload: { query: 'tides', session_id: session } },
      { method: 'POST', url: '/v1/searches', payload: { query: 'tides', session_id: session } },
      { method: 'POST', url: '/v1/asks', payload: { question: 'What causes tides?', session_id: session } },
      { method: 'POST', url: '/v1/crawls', payload: { urls: [SEED], max_pages: 1, session_id: session } },
      { method: 'POST', url: '/v1/crawls/estimate', payload: { urls: [SEED], max_pages: 1, session_id: session } },
      { method: 'POST', url: '/v1/workflows', payload: { ...PIPELINE, session_id: session } },
      { method: 'PATCH', url: `/v1/workflows/${own['/workflows']}`, payload: { session_id: session } },
      { method: 'POST', url: '/v1/search', payload: { query: 'tides', session_id: session, dry_run: true } },
      { method: 'POST', url: '/v1/searches', payload: { query: 'tides', session_id: session, dry_run: true } },
      { method: 'POST', url: '/v1/crawls', payload: { urls: [SEED], max_pages: 1, session_id: session, dry_run: true } },
      { method: 'POST', url: '/v1/workflows', payload: { ...PIPELINE, session_id: session, dry_run: true } },
    ];
    for (const options of viaBody) {
      const res = await send(tokenA, options);
      const request = describeRequest(options);
      problems.push(...contractProblems(request, res));
      if (res.statusCode !== 404 || res.json().code !== 'session_not_found') {
        problems.push({ request, status: res.statusCode, body: res.body.slice(0, 200), why: 'expected 404 session_not_found' });
      }
    }
    expect(problems).toEqual([]);
    const mine = await send(tokenB, { method: 'GET', url: `/v1/sessions/${foreign['/sessions']}` });
    expect(mine.statusCode).toBe(200);
  });

  it('answers out-of-range and non-numeric query values with 400 naming the parameter, and never a 5xx for stray ones', async () => {
    const problems: Problem[] = [];
    for (const prefix of PREFIXES) {
      for (const route of routes.filter((r) => r.method === 'GET')) {
        const path = prefix + (route.path.includes(':id') ? withId(route.path, idFor(own, route.path)) : route.path);
        const declared = ((operation(route.method, route.path).parameters ?? []) as { name: string; in: string }[])
          .filter((p) => p.in === 'query')
          .map((p) => p.name);
        const bad: [string, string][] = [];
        if (declared.includes('limit')) bad.push(['limit', '0'], ['limit', '101'], ['limit', 'abc'], ['limit', '1.5'], ['limit', '']);
        if (declared.includes('offset')) bad.push(['offset', '-1'], ['offset', 'abc']);
        for (const name of declared.filter((n) => n !== 'limit' && n !== 'offset')) bad.push([name, 'a'.repeat(2000)]);
        for (const [name, value] of bad) {
          const options: InjectOptions = { method: 'GET', url: `${path}?${name}=${encodeURIComponent(value)}` };
          const res = await send(tokenA, options);
          const request = describeRequest(options);
          problems.push(...contractProblems(request, res));
          if (res.statusCode !== 400 || !fieldsNamed(res).includes(name)) {
            problems.push({ request, status: res.statusCode, body: res.body.slice(0, 200), why: `expected 400 naming ${name}` });
          }
        }
        for (const stray of ['limit=abc', 'offset=-1', 'limit=0&limit=5', 'zz=1', 'status[]=x']) {
          const options: InjectOptions = { method: 'GET', url: `${path}?${stray}` };
          problems.push(...contractProblems(describeRequest(options), await send(tokenA, options)));
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('API contract: the spec’s limits answer 400 with a stable code on every route they apply to', () => {
  const long = (n: number) => 'x'.repeat(n);
  const fields = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`field_${i}`, 'Extract the value shown on the page']));
  const search = { query: 'tides' };
  const crawl = { urls: [SEED], max_pages: 1 };
  const intent = 'Track pricing changes of CRM vendors';
  const searchRoutes = ['/search', '/searches', '/search/quick', '/sessions/:id/search'];
  const crawlRoutes = ['/crawls', '/crawls/estimate', '/sessions/:id/crawl'];
  const cases: [string, string, object, string][] = [
    ...searchRoutes.flatMap((path): [string, string, object, string][] => [
      ['POST', path, { ...search, query: long(1001) }, 'query_too_long'],
      ['POST', path, { ...search, max_results: 0 }, 'max_results_out_of_range'],
      ['POST', path, { ...search, max_results: 21 }, 'max_results_out_of_range'],
    ]),
    ['POST', '/asks', { question: 'What causes tides?', max_sources: 0 }, 'max_sources_out_of_range'],
    ['POST', '/asks', { question: 'What causes tides?', max_sources: 21 }, 'max_sources_out_of_range'],
    ...crawlRoutes.flatMap((path): [string, string, object, string][] => [
      ['POST', path, { ...crawl, urls: [] }, 'urls_count_out_of_range'],
      ['POST', path, { ...crawl, urls: Array.from({ length: 101 }, (_, i) => `${SEED}${i}`) }, 'urls_count_out_of_range'],
      ['POST', path, { ...crawl, max_pages: 0 }, 'max_pages_out_of_range'],
      ['POST', path, { ...crawl, max_pages: 1001 }, 'max_pages_out_of_range'],
      ['POST', path, { ...crawl, max_pages: 11, processing_mode: 'sync' }, 'sync_max_pages_exceeded'],
      ['POST', path, { ...crawl, link_extraction_config: { max_depth: 0 } }, 'max_depth_out_of_range'],
      ['POST', path, { ...crawl, link_extraction_config: { max_depth: 11 } }, 'max_depth_out_of_range'],
      ['POST', path, { ...crawl, extraction_schema: fields(21) }, 'extraction_schema_too_many_fields'],
      ['POST', path, { ...crawl, extraction_schema: { price: long(9) } }, 'extraction_instruction_too_short'],
      ['POST', path, { ...crawl, intent: long(9) }, 'intent_too_short'],
      ['POST', path, { ...crawl, intent: long(2001) }, 'intent_too_long'],
    ]),
    ['POST', '/crawls/preview-extraction', { url: SEED, extraction_schema: fields(21) }, 'extraction_schema_too_many_fields'],
    ['POST', '/crawls/preview-extraction', { url: SEED, extraction_schema: { price: long(9) } }, 'extraction_instruction_too_short'],
    ...['/workflows/assess-intent', '/workflows/plan', '/workflows/plan/async'].flatMap((path): [string, string, object, string][] => [
      ['POST', path, { intent: long(9) }, 'intent_too_short'],
      ['POST', path, { intent: long(2001) }, 'intent_too_long'],
    ]),
    ['POST', '/workflows', { name: 'w', mode: 'ai_planned', intent: long(9) }, 'intent_too_short'],
    ['POST', '/workflows', { name: 'w', mode: 'ai_planned', intent: long(2001) }, 'intent_too_long'],
    ['POST', '/workflows/assess-intent', { intent, timeout: 999 }, 'timeout_out_of_range'],
    ['POST', '/workflows/assess-intent', { intent, timeout: 30001 }, 'timeout_out_of_range'],
    ['POST', '/workflows', { ...PIPELINE, interval: '99999999999999 weeks' }, 'interval_invalid'],
    ['POST', '/workflows', { ...PIPELINE, interval: '53 weeks' }, 'interval_invalid'],
    ['POST', '/sessions', { name: long(256) }, 'name_too_long'],
    ['PATCH', '/sessions/:id', { name: long(256) }, 'name_too_long'],
    ['POST', '/workflows', { ...PIPELINE, name: long(256) }, 'name_too_long'],
    ['PATCH', '/workflows/:id', { name: long(256) }, 'name_too_long'],
    ['POST', '/workflows/plan', { intent, name: long(256) }, 'name_too_long'],
    ['POST', '/sessions', { name: 's', session_config: { max_operations: 0 } }, 'max_operations_out_of_range'],
    ['POST', '/sessions', { name: 's', session_config: { max_operations: 101 } }, 'max_operations_out_of_range'],
    ['PATCH', '/sessions/:id', { config: { max_operations: 0 } }, 'max_operations_out_of_range'],
    ['PATCH', '/sessions/:id', { config: { max_operations: 101 } }, 'max_operations_out_of_range'],
  ];
  // List page sizes (limit 0 and 101) are checked on every list route by the query test above.

  it('answers every limit case with 400 and its code', async () => {
    const wrong: string[] = [];
    const before = await holdings(tokenA);
    for (const [method, path, payload, code] of cases) {
      const url = `/v1${path.includes(':id') ? withId(path, idFor(own, path)) : path}`;
      const res = await send(tokenA, { method: method as 'POST', url, payload });
      const body = res.json() as Json;
      if (res.statusCode !== 400 || body.code !== code || body.error !== 'validation_error') {
        wrong.push(`${method} ${path} ${JSON.stringify(payload).slice(0, 60)} -> ${res.statusCode} ${String(body.code)}, want 400 ${code}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(cases.length).toBeGreaterThan(60);
    expect(await holdings(tokenA)).toEqual(before);
  });
});

describe('API contract: inputs that pass the schema but are still wrong', () => {
  const wf = (extra: object) => ({ name: 'w', ...extra });
  const raw = (method: string, path: string, payload: string): InjectOptions => ({
    method: method as 'POST',
    url: `/v1${path}`,
    payload,
    headers: { 'content-type': 'application/json' },
  });
  const json = (method: string, path: string, payload?: object): InjectOptions => ({
    method: method as 'POST',
    url: `/v1${path.includes(':id') ? withId(path, idFor(own, path)) : path}`,
    ...(payload ? { payload } : {}),
  });

  it('answers each of them with a 4xx in the error shape, never a 5xx', async () => {
    const requests: InjectOptions[] = [
      json('POST', '/workflows', wf({ workflow_type: 'search', operation_config: { query: 123 } })),
      json('POST', '/workflows', wf({ workflow_type: 'search', operation_config: {} })),
      json('POST', '/workflows', wf({ workflow_type: 'search', operation_config: { query: 'x', max_results: 'abc' }, dry_run: true })),
      json('POST', '/workflows', wf({ workflow_type: 'crawl', operation_config: { urls: 'x' } })),
      json('POST', '/workflows', wf({ workflow_type: 'crawl', operation_config: { urls: [SEED], max_pages: 1e9 }, dry_run: true })),
      json('POST', '/workflows', wf({ workflow_type: 'search', operation_config: { query: 'x' }, cron_expression: 'not a cron' })),
      json('POST', '/workflows', wf({ workflow_type: 'search', operation_config: { query: 'x' }, cron_expression: '99 99 * * *' })),
      json('POST', '/workflows', wf({ workflow_type: 'search', operation_config: { query: 'x' }, interval: 'every blue moon' })),
      json('POST', '/workflows', wf({ workflow_type: 'search', operation_config: { query: 'x' }, interval: '0 minutes' })),
      json('POST', '/workflows', wf({ workflow_type: 'search', operation_config: { query: 'x' }, interval: '99999999999999 weeks' })),
      json('POST', '/workflows', wf({ workflow_type: 'search', operation_config: { query: 'x' }, scheduled_for: 'garbage' })),
      json('POST', '/workflows', wf({ workflow_type: 'search', operation_config: { query: 'x' }, timezone: 'Mars/Olympus' })),
      json('POST', '/workflows', wf({ workflow_type: 'search', operation_config: { query: 'x' }, session_id: UNKNOWN_ID })),
      json('POST', '/workflows', { ...PIPELINE, steps: [{ id: 'm', type: 'aggregate', config: {} }, { id: 'm', type: 'aggregate', config: {} }] }),
      json('POST', '/workflows', { ...PIPELINE, steps: [{ id: 'm', type: 'aggregate', config: {}, depends_on: ['ghost'] }] }),
      json('POST', '/workflows', { ...PIPELINE, steps: [{ id: 'a', type: 'aggregate', config: {}, depends_on: ['b'] }, { id: 'b', type: 'aggregate', config: {}, depends_on: ['a'] }] }),
      json('POST', '/workflows', { ...PIPELINE, steps: [{ id: 'm', type: 'aggregate', config: {}, depends_on: ['m'] }] }),
      json('POST', '/workflows', { ...PIPELINE, steps: [{ id: 'm', type: 'aggregate', config: {}, cascade_condition: '((( nonsense' }] }),
      json('PATCH', '/workflows/:id', { operation_config: { query: 5 } }),
      json('PATCH', '/workflows/:id', { workflow_type: 'crawl' }),
      json('PATCH', '/workflows/:id', { session_id: UNKNOWN_ID }),
      json('POST', '/search', { query: 'x', session_id: UNKNOWN_ID }),
      json('POST', '/searches', { query: 'x', processing_mode: 'webhook' }),
      json('POST', '/searches', { query: 'x', processing_mode: 'webhook', webhook_url: 'ftp://x' }),
      json('POST', '/crawls', { urls: [SEED], session_id: UNKNOWN_ID }),
      json('POST', '/crawls', { urls: [SEED], processing_mode: 'webhook' }),
      json('POST', '/crawls', { urls: ['file:///etc/passwd'] }),
      json('POST', '/crawls', { urls: ['javascript:alert(1)'] }),
      json('POST', '/crawls', { urls: ['http://'] }),
      json('POST', '/crawls', { urls: [SEED], extraction_schema: { '1bad': 'Extract the value shown here' } }),
      json('POST', '/crawls', { urls: [SEED], extraction_schema: {} }),
      json('POST', '/crawls', { urls: [SEED], auto_generate_intent: true }),
      json('POST', '/crawls/estimate', { urls: [SEED], max_pages: 1, extraction_schema: { price: 12 } }),
      json('POST', '/crawls/preview-extraction', { url: 'file:///etc/passwd', extraction_schema: { price: 'Extract the price shown here' } }),
      json('POST', '/brand/design-system', { url: 'file:///etc/passwd' }),
      json('POST', '/asks', { question: 'What causes tides?', session_id: UNKNOWN_ID }),
      json('POST', '/sessions/:id/share', { shared_with_org: true }),
      json('POST', '/sessions/:id/share', { shared_with_org: true, organization_id: UNKNOWN_ID }),
      json('POST', '/sessions/:id/share', { shared_with_org: true, organization_id: 'not-a-uuid' }),
      json('POST', '/tokens', { name: 'x', scopes: [] }),
      json('POST', '/tokens', { name: 'x', scopes: ['search', 'search'] }),
      json('POST', '/sessions', { name: 's', metadata: { intent: { type: 'nonsense' } } }),
      json('POST', '/sessions', { name: 's', metadata: { tags: Array.from({ length: 21 }, () => 't') } }),
      raw('POST', '/sessions', '{"name": "\\ud800 lone surrogate"}'),
      raw('POST', '/sessions', '{"name": "s", "__proto__": {"admin": true}}'),
      raw('POST', '/crawls', '{"urls": ["http://127.0.0.1:9/"], "max_pages": 1e309}'),
      raw('POST', '/search', '{"query": "x", "max_results": -0}'),
      raw('POST', '/crawls', `{"urls": ["http://127.0.0.1:9/"], "extraction_schema": {"__proto__": "Extract the value shown here"}}`),
      json('POST', '/workflows', { ...PIPELINE, steps: [{ id: 's', type: 'search', config: { query: 123 } }] }),
      json('POST', '/workflows', { ...PIPELINE, steps: [{ id: 'c', type: 'crawl', config: { urls: 'x' } }] }),
      json('POST', '/workflows', { ...PIPELINE, steps: [{ id: 'a', type: 'aggregate', config: { aggregation_type: 5 } }] }),
      json('POST', '/workflows', { ...PIPELINE, stop_condition: { type: 'result_count', operator: '!!', value: 'x' } }),
      json('POST', '/workflows', { ...PIPELINE, stop_condition: { type: 'contains_url' } }),
      json('POST', '/workflows', { ...PIPELINE, notification_config: { webhook_url: 'not a url' } }),
      { method: 'POST', url: '/v1/sessions', payload: 'name=s', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      { method: 'POST', url: '/v1/sessions', payload: 'name', headers: { 'content-type': 'text/plain' } },
      { method: 'POST', url: '/v1/sessions', payload: '{"name":"s"}', headers: { 'content-type': 'application/json; charset=utf-16' } },
      { method: 'POST', url: '/v1/sessions', payload: '{"name":"s"}', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } },
      { method: 'PUT', url: '/v1/sessions' },
      { method: 'OPTIONS', url: '/v1/sessions' },
      { method: 'HEAD', url: '/v1/sessions' },
      { method: 'GET', url: '/v1/sessions/' },
      { method: 'GET', url: '/v1/sessions/..%2F..%2Ftokens' },
      { method: 'GET', url: `/v1/sessions/${'%00'.repeat(10)}` },
      { method: 'GET', url: `/v1/sessions?${'x'.repeat(20_000)}=1` },
      json('GET', '/sessions?offset=99999999999999999999'),
      json('GET', '/crawls?offset=1e3'),
      json('GET', '/workflows?limit=5&offset=1e20'),
      json('GET', '/search/jobs?offset=9007199254740993'),
    ];
    const problems: Problem[] = [];
    for (const options of requests) {
      const res = await send(tokenA, options);
      problems.push(...contractProblems(describeRequest(options), res));
    }
    expect(problems).toEqual([]);
  });
});

describe('API contract: inputs that once answered 500', () => {
  const deep = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
  const cases: [string, string, string, string][] = [
    ['POST', '/sessions', `{"name":"s","metadata":{"x":${deep(10_000)}}}`, 'body_too_deep'],
    ['POST', '/workflows', `{"name":"w","mode":"multi_step","interval":"1 hour","steps":[{"id":"m","type":"aggregate","config":{}}],"tags":${deep(10_000)}}`, 'body_too_deep'],
    ['POST', '/crawls', `{"urls":${deep(50_000)}}`, 'body_too_deep'],
    ...['5-1 * * * *', '0 0 * DEC-JAN *', '0 0 1 */13 *', '*/61 * * * *', ' 0 0 * * *', '0 0 * * * '].map(
      (cron): [string, string, string, string] => ['POST', '/workflows', JSON.stringify({ ...PIPELINE, interval: undefined, cron_expression: cron }), 'cron_expression_invalid'],
    ),
  ];

  it('answers deep nesting with 400 body_too_deep and croner-breaking cron expressions with 400 cron_expression_invalid', async () => {
    const wrong: string[] = [];
    for (const [method, path, payload, code] of cases) {
      const res = await send(tokenA, { method: method as 'POST', url: `/v1${path}`, payload, headers: { 'content-type': 'application/json' } });
      if (res.statusCode !== 400 || res.json().code !== code) wrong.push(`${method} ${path} ${payload.slice(0, 70)} -> ${res.statusCode} ${res.body.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('still accepts day-of-week ranges that end on SUN', async () => {
    for (const cron of ['0 9 * * MON-SUN', '0 9 * * SAT-SUN']) {
      const res = await send(tokenA, { method: 'POST', url: '/v1/workflows', payload: { ...PIPELINE, interval: undefined, cron_expression: cron } });
      expect(res.statusCode, res.body).toBe(201);
    }
  });
});

describe('API contract: operations out of order', () => {
  it('answers repeated, late and out-of-state operations with a 2xx or a 4xx in the error shape, never a 5xx', async () => {
    const problems: Problem[] = [];
    const call = async (method: string, path: string, payload?: object) => {
      const options: InjectOptions = { method: method as 'POST', url: `/v1${path}`, ...(payload ? { payload } : {}) };
      const res = await send(tokenA, options);
      problems.push(...contractProblems(describeRequest(options), res));
      return res;
    };
    const created = async (path: string, payload: object) => {
      const body = (await call('POST', path, payload)).json() as { id?: string; workflow?: { id: string } };
      return (body.id ?? body.workflow?.id)!;
    };

    const session = await created('/sessions', { name: 'once', session_config: { max_operations: 1 } });
    await call('POST', `/sessions/${session}/search`, { query: 'tides' });
    await call('POST', `/sessions/${session}/search`, { query: 'tides again' });
    await call('POST', `/sessions/${session}/complete`);
    await call('POST', `/sessions/${session}/complete`);
    await call('POST', `/sessions/${session}/ask`, { question: 'What causes tides?' });
    await call('PATCH', `/sessions/${session}`, { name: 'late' });
    await call('POST', `/sessions/${session}/archive`);
    await call('POST', `/sessions/${session}/archive`);
    await call('POST', `/sessions/${session}/share`, { public_share: true });
    await call('POST', `/sessions/${session}/crawl`, { urls: [SEED], max_pages: 1 });
    await call('DELETE', `/sessions/${session}`);
    await call('DELETE', `/sessions/${session}`);
    await call('GET', `/sessions/${session}/timeline`);
    await call('POST', `/sessions/${session}/complete`);

    const crawl = await created('/crawls', { urls: [SEED], max_pages: 1 });
    await call('POST', `/crawls/${crawl}/abort`);
    await call('POST', `/crawls/${crawl}/abort`);
    await call('POST', `/crawls/${crawl}/share`, { public_share: true });
    await call('DELETE', `/crawls/${crawl}`);
    await call('DELETE', `/crawls/${crawl}`);
    await call('POST', `/crawls/${crawl}/execute`);
    await call('POST', `/crawls/${crawl}/abort`);
    await call('GET', `/public/crawls/${crawl}`);

    const job = await created('/searches', { query: 'tides' });
    await call('DELETE', `/search/jobs/${job}`);
    await call('DELETE', `/search/jobs/${job}`);
    await call('POST', `/search/jobs/${job}/share`, { public_share: true });

    const workflow = await created('/workflows', PIPELINE);
    await call('PATCH', `/workflows/${workflow}`, { status: 'completed' });
    await call('POST', `/workflows/${workflow}/execute`, {});
    await call('PATCH', `/workflows/${workflow}`, { status: 'archived' });
    await call('PATCH', `/workflows/${workflow}`, { status: 'active' });
    await call('PATCH', `/workflows/${workflow}`, { operation_config: { query: 'x' }, workflow_type: 'search' });
    await call('GET', `/workflows/${workflow}/chronicle`);
    await call('GET', `/workflows/${workflow}/recommendations`);
    await call('DELETE', `/workflows/${workflow}`);
    await call('DELETE', `/workflows/${workflow}`);
    await call('POST', `/workflows/${workflow}/execute`, { dry_run: true });
    await call('GET', `/workflows/${workflow}/executions`);

    const token = await created('/tokens', { name: 'doomed' });
    await call('DELETE', `/tokens/${token}`);
    await call('DELETE', `/tokens/${token}`);
    await call('POST', '/webhooks/secret');
    await call('POST', '/webhooks/secret');
    expect(problems).toEqual([]);
  });
});
