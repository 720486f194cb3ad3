import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { LOCAL_USER_EMAIL } from '../engine.js';
import { openTestEngine, principalOf, rejectionCodeOf, type TestEngine } from '../testing/engine.js';
import { defineOperation } from '../accounts/operation.js';
import { runOperation } from './run.js';
import { operationsById } from './table.js';

/** A shop whose pages answer after `delayMs`, so a crawl of it takes a while. */
let site: Server;
let shop: string;
let delayMs = 0;
beforeAll(async () => {
  site = createServer((req, res) => {
    const n = Number(/\/p(\d+)/.exec(req.url ?? '')?.[1] ?? 0);
    const links = [1, 2, 3, 4, 5, 6, 7, 8].map((i) => `<a href="/p${i}">Product ${i}</a>`).join(' ');
    setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><head><title>Page ${n}</title></head><body><h1>Headphones ${n}</h1><p>Noise cancelling model ${n}.</p>${links}</body></html>`), delayMs);
  });
  await new Promise<void>((listening) => site.listen(0, '127.0.0.1', listening));
  shop = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((closed) => site.close(() => closed())));

let t: TestEngine;
afterEach(async () => {
  delayMs = 0;
  await t.dispose();
});
const open = () => (t = openTestEngine({ allowPrivateNetwork: true })).engine;

describe('engine.ops: one typed call per operation', () => {
  it('runs as the local owner when no caller is named, on the local plan with every scope', async () => {
    const engine = open();
    const me = await engine.ops.account.profile();
    expect(me.email).toBe(LOCAL_USER_EMAIL);
    expect(me.plan).toBe('local');
    expect([...me.token.scopes].sort()).toEqual(['crawl', 'search', 'sessions', 'workflow']);
    // By id, the same call.
    expect((await engine.run('getProfile')).email).toBe(LOCAL_USER_EMAIL);
  });

  it('runs as the named caller, with the HTTP API’s scopes and 400s', async () => {
    const engine = open();
    const someone = await principalOf(engine, 'someone@x.test');
    expect((await engine.ops.account.profile(undefined, { as: someone })).email).toBe('someone@x.test');
    const searchOnly = { ...someone, scopes: ['search' as const] };
    expect(await rejectionCodeOf(() => engine.ops.crawls.list({}, { as: searchOnly }))).toBe('403 scope_missing');
    expect(await rejectionCodeOf(() => engine.ops.tokens.create({ name: '', scopes: ['search'] }))).toMatch(/^400 /);
    expect(await rejectionCodeOf(() => engine.ops.crawls.get({ id: '00000000-0000-4000-8000-000000000000' }))).toBe('404 crawl_not_found');
  });

  it('watches an async crawl from pending to completed, and aborts one when the signal fires', async () => {
    const engine = open();
    engine.jobs.start({ pollMs: 10 });
    const crawl = await engine.ops.crawls.create({ urls: [`${shop}/`], max_pages: 4, expansion: 'internal' });
    if ('dry_run' in crawl) throw new Error('not a dry run');
    const seen: { status: string; crawled: number; state: string }[] = [];
    for await (const p of engine.ops.crawls.watch(crawl.id, { intervalMs: 10 })) seen.push({ status: p.status, crawled: p.stats.pages_crawled, state: JSON.stringify([p.status, p.stats]) });
    expect(`${seen.at(-1)!.status} ${seen.at(-1)!.crawled}`).toBe('completed 4');
    // A progress is yielded each time the status or any stat changes, never twice the same. Not only when
    // pages_crawled does: pages taken from the frontier lower pages_queued before they are fetched, which a
    // watcher sees whenever the crawl's store calls take a while (each is a round trip on PostgreSQL).
    expect(seen.every((p, i) => i === 0 || p.state !== seen[i - 1]!.state)).toBe(true);
    expect(seen.every((p, i) => i === 0 || p.crawled >= seen[i - 1]!.crawled)).toBe(true);

    delayMs = 300;
    const slow = await engine.ops.crawls.create({ urls: [`${shop}/`], max_pages: 8, expansion: 'internal' });
    if ('dry_run' in slow) throw new Error('not a dry run');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 400);
    await expect(async () => {
      for await (const _ of engine.ops.crawls.watch(slow.id, { intervalMs: 10, signal: controller.signal }));
    }).rejects.toThrow(/abort/i);
    // The watch aborts the crawl without waiting for it (expect.poll's default of 1 s is short on a busy machine).
    await expect.poll(async () => (await engine.ops.crawls.get({ id: slow.id, documents: 'none' })).status, { timeout: 20_000 }).toBe('cancelled');
  });

  it('aborts a sync crawl when the call’s signal fires', async () => {
    const engine = open();
    delayMs = 300;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 400);
    const crawl = await engine.ops.crawls.create({ urls: [`${shop}/`], max_pages: 8, expansion: 'internal', processing_mode: 'sync' }, { signal: controller.signal });
    if ('dry_run' in crawl) throw new Error('not a dry run');
    expect(crawl.status).toBe('cancelled');
    expect(crawl.stats.pages_crawled).toBeLessThan(8);
  });

  it('yields each execution of a workflow that lands while watching, and ends when the workflow stops', async () => {
    const engine = open();
    const { workflow } = await engine.ops.workflows.create({ name: 'watch me', workflow_type: 'crawl', operation_config: { urls: [`${shop}/p1`], max_pages: 1 }, interval: '1 day' });
    await engine.ops.workflows.execute({ id: workflow!.id }); // before watching: not yielded
    const seen: number[] = [];
    const watching = (async () => {
      for await (const execution of engine.ops.workflows.watch(workflow!.id, { intervalMs: 10 })) {
        seen.push(execution.seq);
        if (seen.length === 2) await engine.ops.workflows.update({ id: workflow!.id, status: 'paused' });
      }
    })();
    await new Promise((settle) => setTimeout(settle, 50));
    await engine.ops.workflows.execute({ id: workflow!.id });
    await expect.poll(() => seen.length).toBe(1);
    await engine.ops.workflows.execute({ id: workflow!.id });
    await watching;
    expect(seen).toEqual([2, 3]);
  });
});

describe('runOperation', () => {
  const Answer = z.object({ n: z.number() });
  const liar = defineOperation({ id: 'liar', scope: 'token', tag: 'test', summary: 'answers a string where a number is due', output: Answer, run: () => ({ n: 'one' }) as never });

  it('checks the answer against the output schema when asked to, naming the field', async () => {
    const engine = open();
    const me = await principalOf(engine, 'me@x.test');
    const input = { params: {}, query: {}, body: undefined };
    await expect(runOperation(engine, liar, me, input)).resolves.toEqual({ n: 'one' });
    await expect(runOperation(engine, liar, me, input, { validateOutput: true })).rejects.toThrow(/liar answered outside its output schema: n /);
  });

  it('reaches a service for every operation: an empty call answers or refuses in the error shape, never a TypeError', async () => {
    const engine = open();
    for (const [id, operation] of Object.entries(operationsById)) {
      const input = { params: { id: '00000000-0000-4000-8000-000000000000' }, query: {}, body: operation.body ? {} : undefined };
      const outcome = await runOperation(engine, operation, await principalOf(engine, 'me@x.test'), input).then(
        () => 'answered',
        (e: unknown) => (e instanceof Error && e.name === 'WvrError' ? 'refused' : `${id}: ${String(e)}`),
      );
      expect(['answered', 'refused']).toContain(outcome);
    }
  });

  it('refuses a caller-less call to an operation that needs one', async () => {
    const engine = open();
    expect(await rejectionCodeOf(() => runOperation(engine, operationsById.getCredits!, null, { params: {}, query: {}, body: undefined }))).toBe('401 token_missing');
  });
});
