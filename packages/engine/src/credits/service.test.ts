import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine } from '../engine.js';
import { WvrError } from '../core/errors.js';
import { openTestEngine, type TestEngine } from '../testing/engine.js';
import { pricing } from './pricing.js';

let t: TestEngine;
let userId: string;
beforeEach(async () => {
  t = openTestEngine();
  userId = (await t.engine.accounts.ensureUser({ email: 'a@x.test' })).id;
});
afterEach(async () => {
  // Whatever a test did, the balance it reports is the ledger's sum.
  expect(await t.engine.credits.balance(userId)).toBe(await t.engine.credits.ledgerSum(userId));
  return t.dispose();
});

const spendTo = async (target: number) => {
  const balance = await t.engine.credits.balance(userId);
  if (balance > target) await t.engine.credits.charge(userId, { ...pricing.quickSearch(), credits: balance - target }, 'test');
};

describe('credits', () => {
  it('grants 100 credits to a free user in their first month', async () => {
    expect(await t.engine.credits.balance(userId)).toBe(100);
    expect(await t.engine.credits.summary(t.engine.accounts.localPrincipal(await t.engine.accounts.getUser(userId)))).toMatchObject({
      balance: 100,
      plan: 'free',
      monthly_grant: 100,
      reserved: 0,
      period_start: '2026-03-01T00:00:00.000Z',
    });
  });

  it('tops the balance up to the monthly grant once per calendar month', async () => {
    await spendTo(30);
    t.clock.set('2026-03-31T23:59:00Z');
    expect(await t.engine.credits.balance(userId)).toBe(30);
    t.clock.set('2026-04-01T00:00:01Z');
    expect(await t.engine.credits.balance(userId)).toBe(100);
    expect(await t.engine.credits.balance(userId)).toBe(100);
    const grants = (await t.engine.context.store.ledger.recentEntries(userId, 100))
      .filter((e) => e.kind === 'grant')
      .reverse()
      .map((e) => ({ amount: e.amount, period: e.period }));
    expect(grants).toEqual([
      { amount: 100, period: '2026-03' },
      { amount: 70, period: '2026-04' },
    ]);
  });

  it('keeps operator grants above the monthly grant, before the first use and across months', async () => {
    const fresh = (await t.engine.accounts.ensureUser({ email: 'granted@x.test' })).id;
    await t.engine.credits.grant(fresh, 50, 'operator grant');
    expect(await t.engine.credits.balance(fresh)).toBe(150);
    await t.engine.credits.charge(fresh, { ...pricing.quickSearch(), credits: 120 }, 'test'); // the month's 100, then 20 of the 50
    t.clock.set('2026-04-01T00:00:01Z');
    expect(await t.engine.credits.balance(fresh)).toBe(130);
    await t.engine.credits.charge(fresh, { ...pricing.quickSearch(), credits: 40 }, 'test'); // from April's 100
    t.clock.set('2026-05-01T00:00:01Z');
    expect(await t.engine.credits.balance(fresh)).toBe(130);
    expect(await t.engine.credits.balance(fresh)).toBe(await t.engine.credits.ledgerSum(fresh));
  });

  it('charges 2 credits when rerank_results is set and reports the credits info', async () => {
    const info = await t.engine.credits.charge(userId, pricing.fullSearch({ rerank_results: true }), 'search');
    expect(info).toEqual({ consumed: 2, balance_after: 98, pricing_tier: 'advanced', advanced_features: ['rerank_results'] });
    expect(await t.engine.credits.charge(userId, pricing.fullSearch({}), 'search')).toMatchObject({ consumed: 1, pricing_tier: 'basic' });
  });

  it('never refuses the local plan for its balance, and still records every use in the ledger', async () => {
    const local = (await t.engine.accounts.ensureUser({ email: 'me@local.test', plan: 'local' })).id;
    const r = await t.engine.credits.reserve(local, 1000, 'crawl');
    expect(await t.engine.credits.use(r.id, 150)).toBe(true);
    await t.engine.credits.commit(r.id, pricing.crawlPage({}));
    await t.engine.credits.charge(local, { ...pricing.quickSearch(), credits: 5 }, 'search');
    expect(await t.engine.credits.balance(local)).toBe(-155);
    expect((await t.engine.credits.canAfford(local, 10_000)).would_succeed).toBe(true);
    const summary = await t.engine.credits.summary(t.engine.accounts.localPrincipal(await t.engine.accounts.getUser(local)));
    expect(summary).toMatchObject({ plan: 'local', monthly_grant: 0, balance: -155 });
    expect(summary.recent.map((e) => [e.kind, e.amount])).toContainEqual(['charge', -5]);
    // A metered account next to it is still refused.
    await expect(t.engine.credits.reserve(userId, 1000, 'crawl')).rejects.toThrow(WvrError);
  });

  it('answers 402 with suggestions and charges nothing when credits are short', async () => {
    await spendTo(1);
    const before = await t.engine.credits.ledgerSum(userId);
    const rows = async () => (await t.engine.context.store.ledger.recentEntries(userId, 1_000)).length;
    const count = await rows();
    let error: unknown;
    try {
      await t.engine.credits.charge(userId, pricing.fullSearch({ generate_suggestions: true }), 'search');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WvrError);
    expect((error as WvrError).status).toBe(402);
    expect((error as WvrError).suggestions.length).toBeGreaterThan(0);
    expect((error as WvrError).details).toMatchObject({ credits_needed: 2, credits_balance: 1 });
    expect(await t.engine.credits.ledgerSum(userId)).toBe(before);
    expect(await rows()).toBe(count);
  });

  it('commits what a reservation used and releases the rest', async () => {
    const r = await t.engine.credits.reserve(userId, 20, 'crawl');
    expect(await t.engine.credits.balance(userId)).toBe(80);
    expect(await t.engine.credits.use(r.id, 6)).toBe(true);
    expect(await t.engine.credits.use(r.id, 15)).toBe(false);
    const info = await t.engine.credits.commit(r.id, pricing.crawlPage({}));
    expect(info).toMatchObject({ consumed: 6, balance_after: 94 });
    expect(await t.engine.credits.balance(userId)).toBe(94);
  });

  it('releases a whole reservation once, however often release is called', async () => {
    const r = await t.engine.credits.reserve(userId, 40, 'crawl');
    await t.engine.credits.use(r.id, 4);
    await t.engine.credits.release(r.id);
    await t.engine.credits.release(r.id);
    expect(await t.engine.credits.balance(userId)).toBe(96);
    expect((await t.engine.credits.reservation(r.id)).status).toBe('released');
  });

  it('lists the most recent ledger entries newest first, across users', async () => {
    const other = (await t.engine.accounts.ensureUser({ email: 'b@x.test' })).id;
    await t.engine.credits.balance(userId); // the month's grant first, so it is the oldest entry
    for (const note of ['first', 'second', 'third']) {
      await t.engine.credits.grant(userId, 1, note);
      await t.engine.credits.grant(other, 1, `other ${note}`);
    }
    const principal = t.engine.accounts.localPrincipal(await t.engine.accounts.getUser(userId));
    expect((await t.engine.credits.summary(principal)).recent.slice(0, 3).map((e) => e.note)).toEqual(['third', 'second', 'first']);
  });

  it('refunds add to the balance', async () => {
    await t.engine.credits.charge(userId, pricing.ask('deep'), 'ask');
    await t.engine.credits.refund(userId, 2, 'deep ask read fewer sources');
    expect(await t.engine.credits.balance(userId)).toBe(97);
  });

  it("reads the balance while another engine's transaction holds the account, as a crawl's charge does", async () => {
    await spendTo(40);
    const other = createEngine({ ...t.store, clock: t.clock, secret: 'test-secret' });
    let finish!: () => void;
    const held = new Promise<void>((resolve) => (finish = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    try {
      // The write lock (SQLite) and the account's row lock (PostgreSQL: taken by the balance read in a transaction).
      const holding = other.context.store.atomically(async (tx) => {
        await tx.ledger.balance(userId);
        entered();
        await held;
      });
      await inside;
      // Well inside SQLite's 5 s busy timeout, which a write transaction here would have waited out.
      const read = await Promise.race([t.engine.credits.balance(userId), new Promise((resolve) => setTimeout(() => resolve('still waiting'), 2_000))]);
      expect(read).toBe(40);
      finish();
      await holding;
    } finally {
      finish();
      await other.close();
    }
  });

  it('never overdraws under 50 concurrent reservations against a balance of 10, across two engines', async () => {
    await spendTo(10);
    const other = createEngine({ ...t.store, clock: t.clock, secret: 'test-secret' });
    try {
      const attempts = Array.from({ length: 50 }, (_, i) =>
        Promise.resolve().then(async () => {
          const engine = i % 2 === 0 ? t.engine : other;
          try {
            return await engine.credits.reserve(userId, 1, 'crawl');
          } catch (e) {
            if (e instanceof WvrError && e.status === 402) return null;
            throw e;
          }
        }),
      );
      const results = await Promise.all(attempts);
      expect(results.filter(Boolean)).toHaveLength(10);
      expect(await t.engine.credits.balance(userId)).toBe(0);
      expect(await other.credits.balance(userId)).toBe(0);
    } finally {
      await other.close();
    }
  });
});

describe('pricing', () => {
  it('prices crawl pages at 2 credits when any advanced feature is used', () => {
    expect(pricing.crawlPage({})).toEqual({ credits: 1, pricing_tier: 'basic', advanced_features: [] });
    expect(pricing.crawlPage({ intent: 'find laptops', classify_documents: true })).toEqual({
      credits: 2,
      pricing_tier: 'advanced',
      advanced_features: ['classify_documents', 'intent'],
    });
  });

  it('halves cached pages and rounds the job total up', () => {
    expect(pricing.cachedPagesCost(3, 1)).toBe(2);
    expect(pricing.cachedPagesCost(4, 2)).toBe(4);
  });
});
