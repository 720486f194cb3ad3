import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startLocalWeb, type LocalWeb } from '@wvr/testkit';
import { openTestEngine, principalOf, fundedPrincipalOf, type TestEngine } from '../testing/engine.js';
import { DAY } from '../core/clock.js';
import type { CrawlDetail } from '../crawl/responses.js';
import type { EngineOptions } from '../core/options.js';
import { AiService } from '../ai/service.js';
import { resolveAi } from '../core/ai-options.js';
import { AskService } from './service.js';
import { searchRetriever } from './retriever.js';
import { citedNumbers } from './compose.js';
import type { AskResponse } from './schemas.js';

let web: LocalWeb;
beforeAll(async () => {
  web = await startLocalWeb({ sizes: { products: 60, articles: 20, docsDepth: 2 } });
});
afterAll(() => web.close());

const open: TestEngine[] = [];
afterEach(async () => {
  while (open.length) await open.pop()!.dispose();
});

const NIGHTJAR =
  'Project Nightjar is the codename for the new satellite uplink. The Nightjar launch is scheduled for 14 May from the northern pad, with a budget of 3.2 million.';

async function setup(options: EngineOptions = {}, ai = new AiService(resolveAi({ provider: 'heuristic' }))) {
  const t = openTestEngine({ allowPrivateNetwork: true, searxngUrl: web.search, ...options });
  open.push(t);
  const alice = await principalOf(t.engine, 'alice@a.test');
  const bob = await principalOf(t.engine, 'bob@b.test');
  await t.engine.search.index.upsert({
    url: 'https://intranet.a.test/nightjar',
    title: 'Nightjar launch plan',
    text: `${NIGHTJAR}\n\nThe Nightjar team meets every Tuesday to review the launch checklist and the uplink tests.`,
    ownerUserId: alice.userId,
    fetchedAt: t.clock.now(),
  });
  await t.engine.search.index.upsert({
    url: 'https://public.example.test/birds',
    title: 'Nightjars, the birds',
    text: 'Nightjars are nocturnal birds with long wings. A nightjar hunts moths at dusk and nests on bare ground.',
    ownerUserId: null,
    fetchedAt: t.clock.now(),
  });
  const asks = new AskService(t.engine.context, t.engine.credits, ai, searchRetriever(t.engine.search, t.engine.web), t.engine.extraction);
  return { t, asks, alice, bob };
}

function expectCitationsResolve(res: AskResponse) {
  const cited = citedNumbers(res.answer);
  expect(cited.length).toBeGreaterThan(0);
  for (const n of cited) expect(res.sources.map((s) => s.index)).toContain(n);
  for (const s of res.sources) expect(s.cited).toBe(cited.includes(s.index));
  expect(res.sources.map((s) => s.index)).toEqual(res.sources.map((_, i) => i + 1));
}

describe('ask under the heuristic provider', () => {
  it('answers from the caller’s own private page, quoting it, with every citation pointing at a returned source', async () => {
    const { asks, alice } = await setup();
    const res = await asks.create(alice, { question: 'When is the Nightjar launch scheduled?', depth: 'standard' });
    expect(res.answer_mode).toBe('extractive');
    expectCitationsResolve(res);
    const plan = res.sources.find((s) => s.url === 'https://intranet.a.test/nightjar')!;
    expect(plan.cited).toBe(true);
    expect(plan.index).toBe(1);
    expect(res.answer).toContain('14 May');
    // read in full from the index, not from its search snippet
    for (const p of plan.passages) expect(`${NIGHTJAR} The Nightjar team meets every Tuesday to review the launch checklist and the uplink tests.`).toContain(p.text);
    expect(res.confidence).toBeGreaterThan(0.5);
    expect(res.follow_up_questions.length).toBeGreaterThan(0);
  });

  it('never gives a second user the first user’s private content', async () => {
    const { asks, bob } = await setup();
    const res = await asks.create(bob, { question: 'When is the Nightjar launch scheduled?', depth: 'deep' });
    expect(res.sources.map((s) => s.url)).not.toContain('https://intranet.a.test/nightjar');
    const everything = JSON.stringify(res);
    expect(everything).not.toContain('14 May');
    expect(everything).not.toContain('satellite uplink');
    expect(res.sources.map((s) => s.url)).toContain('https://public.example.test/birds');
  });

  it('reads web-provider results (the local web’s SearXNG endpoint) and cites them', async () => {
    const { asks, bob } = await setup();
    const res = await asks.create(bob, { question: 'Kestrel smart watch fitness', depth: 'quick', max_sources: 3 });
    expectCitationsResolve(res);
    expect(res.sources.length).toBeGreaterThan(0);
    expect(res.sources.length).toBeLessThanOrEqual(3);
    expect(res.sources.every((s) => s.url.startsWith('http://127.0.0.1:'))).toBe(true);
    expect(res.stats.pages_read).toBeLessThanOrEqual(3);
    // Pages are read in full through engine.web: more passages than the one snippet per page.
    expect(res.stats.passages_ranked).toBeGreaterThan(res.stats.pages_read);
    expect(web.requests.some((r) => r.path.startsWith('/product/') && r.userAgent.startsWith('wvr/'))).toBe(true);
  });

  it('says so, with no sources and confidence 0, when nothing the caller may see answers', async () => {
    const { asks, bob } = await setup({ searxngUrl: undefined });
    const res = await asks.create(bob, { question: 'zyxwv qqqq', depth: 'quick' });
    expect(res).toMatchObject({ sources: [], confidence: 0, answer_mode: 'extractive' });
    expect(citedNumbers(res.answer)).toEqual([]);
  });
});

describe('ask with a session_id', () => {
  it('runs as the session’s ask: recorded on its timeline, and 404 for another user’s session with nothing charged', async () => {
    const { t, alice, bob } = await setup({ searxngUrl: undefined });
    const session = await t.engine.sessions.create(alice, { name: 'Launch research' });
    const res = await t.engine.ops.asks.create({ question: 'When is the Nightjar launch scheduled?', session_id: session.id }, { as: alice });
    expect(res.session_id).toBe(session.id);
    expectCitationsResolve(res);
    const timeline = JSON.stringify(await t.engine.sessions.timeline(alice, session.id));
    expect(timeline).toContain(res.id);

    const before = await t.engine.credits.balance(bob.userId);
    await expect(t.engine.ops.asks.create({ question: 'Nightjar', session_id: session.id }, { as: bob })).rejects.toMatchObject({ status: 404 });
    expect(await t.engine.credits.balance(bob.userId)).toBe(before);
  });
});

describe('ask pricing', () => {
  it('charges exactly 2 for quick and 3 for standard, and the ledger agrees', async () => {
    const { t, asks, alice } = await setup();
    const before = await t.engine.credits.balance(alice.userId);
    const quick = await asks.create(alice, { question: 'Nightjar launch', depth: 'quick' });
    expect(quick.credits).toMatchObject({ consumed: 2, base_credits: 2, max_credits: 2, balance_after: before - 2, research_rounds: 1 });
    const standard = await asks.create(alice, { question: 'Nightjar launch', depth: 'standard' });
    expect(standard.credits).toMatchObject({ consumed: 3, base_credits: 3, max_credits: 3, balance_after: before - 5 });
    expect(await t.engine.credits.ledgerSum(alice.userId)).toBe(before - 5);
    expect((await t.engine.credits.summary(alice)).reserved).toBe(0);
  });

  it('charges deep 5 plus 1 per further research round, never past the stated maximum of 10', async () => {
    const { t, asks, bob } = await setup();
    const before = await t.engine.credits.balance(bob.userId);
    const res = await asks.create(bob, { question: 'smart watch fitness tracker strap', depth: 'deep', max_sources: 20 });
    expect(res.credits.base_credits).toBe(5);
    expect(res.credits.max_credits).toBe(10);
    expect(res.credits.research_rounds).toBeGreaterThan(1);
    expect(res.credits.consumed).toBe(5 + res.credits.research_rounds - 1);
    expect(res.credits.consumed).toBeLessThanOrEqual(10);
    expect(await t.engine.credits.ledgerSum(bob.userId)).toBe(before - res.credits.consumed);
    expect((await t.engine.credits.summary(bob)).reserved).toBe(0);
  });

  it('states a lower maximum for deep when the balance is below 10, and answers 402 below the base price', async () => {
    const { t, asks, bob } = await setup({ monthlyGrants: { free: 6 } });
    const deep = await asks.create(bob, { question: 'smart watch fitness tracker strap', depth: 'deep' });
    expect(deep.credits.max_credits).toBe(6);
    expect(deep.credits.consumed).toBeLessThanOrEqual(6);
    const left = await t.engine.credits.balance(bob.userId);
    await expect(asks.create(bob, { question: 'Nightjar', depth: 'deep' })).rejects.toMatchObject({ status: 402 });
    expect(await t.engine.credits.balance(bob.userId)).toBe(left);
  });

  it('answers 400 for an invalid body without charging', async () => {
    const { t, asks, bob } = await setup();
    const before = await t.engine.credits.balance(bob.userId);
    await expect(asks.create(bob, { question: 'x', max_sources: 30 })).rejects.toMatchObject({ status: 400, code: 'max_sources_out_of_range' });
    expect(await t.engine.credits.balance(bob.userId)).toBe(before);
  });
});

describe('ask under the openai provider (a local chat-completions stub)', () => {
  let server: Server;
  let baseUrl: string;
  let reply: (prompt: string) => { status: number; content: string };
  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        const body = JSON.parse(raw) as { messages: { content: string }[] };
        const { status, content } = reply(body.messages.map((m) => m.content).join('\n'));
        res.writeHead(status, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: 'c1',
            object: 'chat.completion',
            created: 1,
            model: 'stub',
            choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
            usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const openai = () => new AiService(resolveAi({ provider: 'openai', baseUrl, apiKey: 'sk-test', model: 'stub', timeoutMs: 5_000 }));
  const grounded = (answer: string) => ({
    status: 200,
    content: JSON.stringify({ answer, confidence: 0.9, follow_up_questions: ['Who leads Nightjar?'] }),
  });

  it('returns the model’s grounded answer when it cites only the numbered sources it was given', async () => {
    let prompt = '';
    reply = (p) => {
      prompt = p;
      return grounded('The launch is on 14 May [1].');
    };
    const { asks, alice } = await setup({ searxngUrl: undefined }, openai());
    const res = await asks.create(alice, { question: 'When is the Nightjar launch scheduled?' });
    expect(prompt).toContain('[1] Nightjar launch plan (https://intranet.a.test/nightjar)');
    expect(res).toMatchObject({ answer: 'The launch is on 14 May [1].', answer_mode: 'generated', follow_up_questions: ['Who leads Nightjar?'] });
    expect(res.model).toMatchObject({ provider: 'openai', fallback_reason: null });
    expectCitationsResolve(res);
    expect(res.sources[0]!.url).toBe('https://intranet.a.test/nightjar');
  });

  it('falls back to the extractive answer when the model cites a source it was not given', async () => {
    reply = () => grounded('The launch is on 14 May [7].');
    const { asks, alice } = await setup({ searxngUrl: undefined }, openai());
    const res = await asks.create(alice, { question: 'When is the Nightjar launch scheduled?' });
    expect(res.answer_mode).toBe('extractive');
    expect(res.model.fallback_reason).toBe('invalid_citations');
    expectCitationsResolve(res);
  });

  it('falls back to the extractive answer when the provider fails, and still charges the stated price', async () => {
    reply = () => ({ status: 500, content: 'boom' });
    const { t, asks, alice } = await setup({ searxngUrl: undefined }, openai());
    const before = await t.engine.credits.balance(alice.userId);
    const res = await asks.create(alice, { question: 'When is the Nightjar launch scheduled?' });
    expect(res.answer_mode).toBe('extractive');
    expect(res.model.fallback_reason).toBe('provider_error');
    expect(res.answer).toContain('14 May');
    expect(await t.engine.credits.balance(alice.userId)).toBe(before - 3);
  });
});

describe('ask over pages already in the local index', () => {
  it('reads the caller\'s privately crawled page from the index in full, without fetching it again', async () => {
    let hits = 0;
    const filler = 'The quarterly review covered staffing, office moves and the new coffee machine. '.repeat(30);
    const server = createServer((req, res) => {
      if (req.url !== '/memo') return void res.writeHead(404).end();
      hits++;
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<html><head><title>Heron project memo</title></head><body><main><p>${filler}</p><p>The Heron prototype ships on 3 October from the Leeds plant.</p></main></body></html>`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/memo`;
      const t = openTestEngine({ allowPrivateNetwork: true });
      open.push(t);
      const alice = await fundedPrincipalOf(t.engine, 'alice@a.test', 100);
      const bob = await fundedPrincipalOf(t.engine, 'bob@b.test', 100);
      const crawl = (await t.engine.crawls.create(alice, { urls: [url], max_pages: 1, processing_mode: 'sync' })) as CrawlDetail;
      expect(crawl.documents).toHaveLength(1);
      expect(hits).toBe(1);
      // Past the web cache's age, so only the index can spare the fetch.
      t.clock.advance(2 * DAY);
      const res = await t.engine.asks.create(alice, { question: 'When does the Heron prototype ship?', depth: 'quick' });
      expect(hits).toBe(1);
      const memo = res.sources.find((s) => s.url === url)!;
      expect(memo.passages.map((p) => p.text).join(' ')).toContain('3 October');
      expect(res.stats.pages_read).toBeGreaterThan(0);
      // Alice's private page is not Bob's to read: for him the index holds nothing, which is said, not charged.
      const before = await t.engine.credits.balance(bob.userId);
      await expect(t.engine.asks.create(bob, { question: 'When does the Heron prototype ship?', depth: 'quick' })).rejects.toMatchObject({ code: 'search_index_empty' });
      expect(await t.engine.credits.balance(bob.userId)).toBe(before);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
