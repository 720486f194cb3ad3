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
  const a = engine.accounts.ensureUser({ email: 'a@x.test' });
  const b = engine.accounts.ensureUser({ email: 'b@x.test' });
  engine.credits.grant(a.id, 1000);
  engine.credits.grant(b.id, 1000);
  tokenA = engine.tokens.issue(a.id, { name: 'a', scopes: [...ALL_SCOPES] }).token;
  tokenB = engine.tokens.issue(b.id, { name: 'b', scopes: [...ALL_SCOPES] }).token;
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

const PREFIXES = ['/v1', '/api/v1'];
const withId = (path: string, id: string) => path.replace(':id', id);
const describeRequest = (o: InjectOptions) => `${o.method} ${String(o.url)} ${typeof o.payload === 'string' ? o.payload.slice(0, 60) : JSON.stringify(o.payload ?? null).slice(0, 80)}`;

describe('API contract: bad input never breaks the server', () => {
  it('answers malformed, array, empty and bodiless requests on every route with a 4xx in the error shape, never a 5xx', async () => {
    const problems: Problem[] = [];
    for (const prefix of PREFIXES) {
      for (const route of routes) {
        if (route.method === 'GET' || route.method === 'DELETE') continue;
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
    for (const route of routes) {
      const schema = bodySchemaOf(route.method, route.path);
      if (!schema) continue;
      const url = `/v1${route.path.includes(':id') ? withId(route.path, idFor(own, route.path)) : route.path}`;
      const cases = Object.entries(propertiesOf(doc, schema)).flatMap(([field, s]) => fieldCases(doc, field, s));
      cases.push({ field: 'zz_unknown', value: 1, mustName: false });
      for (const c of cases) {
        const options: InjectOptions = { method: route.method, url, payload: { [c.field]: c.value } };
        const res = await send(tokenA, options);
        const request = describeRequest(options);
        problems.push(...contractProblems(request, res));
        if (res.statusCode !== 400) {
          problems.push({ request, status: res.statusCode, body: res.body.slice(0, 200), why: 'expected 400' });
          continue;
        }
        const named = fieldsNamed(res);
        const wanted = c.mustName ? c.field : '';
        if (!named.some((p) => p === wanted || p.startsWith(`${wanted}.`) || (!c.mustName && res.json().code === 'unknown_field'))) {
          problems.push({ request, status: 400, body: res.body.slice(0, 300), why: `details.fields does not name ${c.field}` });
        }
      }
    }
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
