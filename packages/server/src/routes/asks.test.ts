import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestServer, type TestServer } from '../testing.js';

let t: TestServer;
let token: string;
let noSearch: string;

beforeEach(async () => {
  t = await openTestServer({ engine: { searxngUrl: undefined } });
  const user = await t.engine.accounts.ensureUser({ email: 'a@x.test' });
  token = (await t.engine.tokens.issue(user.id, { name: 'search', scopes: ['search'] })).token;
  noSearch = (await t.engine.tokens.issue(user.id, { name: 'crawl', scopes: ['crawl'] })).token;
  await t.engine.search.index.upsert({
    url: 'https://public.example.test/tides',
    title: 'Tides',
    text: 'Tides are caused by the gravitational pull of the Moon and the Sun on the oceans of the Earth.',
    ownerUserId: null,
    fetchedAt: t.clock.now(),
  });
});
afterEach(() => t.close());

describe('POST /v1/asks', () => {
  it('answers with cited sources and the credits charged', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/asks',
      headers: { authorization: `Bearer ${token}` },
      payload: { question: 'What causes tides?', depth: 'quick' },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.answer).toMatch(/\[1\]/);
    expect(body.sources[0]).toMatchObject({ index: 1, url: 'https://public.example.test/tides', cited: true });
    expect(body.credits).toMatchObject({ consumed: 2, max_credits: 2 });
  });

  it('answers 400 for a bad depth and 403 without the search scope', async () => {
    const bad = await t.app.inject({ method: 'POST', url: '/v1/asks', headers: { authorization: `Bearer ${token}` }, payload: { question: 'x', depth: 'abyss' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('depth_invalid');
    const forbidden = await t.app.inject({ method: 'POST', url: '/v1/asks', headers: { authorization: `Bearer ${noSearch}` }, payload: { question: 'x' } });
    expect(forbidden.statusCode).toBe(403);
  });
});
