import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalWeb, type LocalWeb } from '@wvr/testkit';
import { resolveOptions } from '../core/options.js';
import { WvrError } from '../core/errors.js';
import { openTestEngine, principalOf } from '../testing/engine.js';

let web: LocalWeb;
beforeAll(async () => {
  web = await startLocalWeb({ sizes: { products: 20, articles: 10 } });
});
afterAll(() => web.close());

const refusal = (promise: Promise<unknown>) => promise.then(() => null, (e: unknown) => (e instanceof WvrError ? e : null));

describe('which search provider, and searches that cannot work', () => {
  it('selects SearXNG when only its URL is given, and keeps a named provider', () => {
    expect(resolveOptions({ searxngUrl: 'http://127.0.0.1:1' }).searchProvider).toBe('searxng');
    expect(resolveOptions({ searxngUrl: 'http://127.0.0.1:1', searchProvider: 'local' }).searchProvider).toBe('local');
    expect(resolveOptions({}).searchProvider).toBe('local');
  });

  it('searches through SearXNG given only its URL', async () => {
    const t = openTestEngine({ searxngUrl: web.search, allowPrivateNetwork: true });
    try {
      const result = await t.engine.search.quick(await principalOf(t.engine, 'a@x.test'), { query: 'products' });
      expect(result.provider).toBe('searxng');
    } finally {
      await t.dispose();
    }
  });

  it('explains an empty local index and an unconfigured provider, and charges neither', async () => {
    const empty = openTestEngine();
    const unset = openTestEngine({ searchProvider: 'searxng' });
    try {
      for (const [t, code] of [[empty, 'search_index_empty'], [unset, 'search_provider_unset']] as const) {
        const me = await principalOf(t.engine, 'a@x.test');
        const before = await t.engine.credits.balance(me.userId);
        expect((await refusal(t.engine.search.quick(me, { query: 'anything' })))?.code).toBe(code);
        expect((await refusal(t.engine.search.search(me, { query: 'anything' })))?.code).toBe(code);
        expect(await t.engine.credits.balance(me.userId)).toBe(before);
      }
      const me = await principalOf(empty.engine, 'a@x.test');
      const before = await empty.engine.credits.balance(me.userId);
      expect((await refusal(empty.engine.asks.create(me, { question: 'What changed in the latest release?' })))?.code).toBe('search_index_empty');
      expect(await empty.engine.credits.balance(me.userId)).toBe(before);
    } finally {
      await empty.dispose();
      await unset.dispose();
    }
  });
});
