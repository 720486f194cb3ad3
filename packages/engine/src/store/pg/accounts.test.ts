import { beforeAll, describe, expect, it } from 'vitest';
import { PgAccounts, PgRateLimits } from './accounts.js';
import { PgExecutor } from './executor.js';
import { usePostgres } from './testing.js';

const store = usePostgres('accounts', { max: 8 });
let ex: PgExecutor;

beforeAll(async () => {
  ex = new PgExecutor(store.pool);
  await store.pool.query(`INSERT INTO users (id, email, created_at) VALUES ('u1', 'u1@test', '2026-01-01T00:00:00.000Z')`);
}, 120_000);

describe('accounts ports on PostgreSQL', () => {
  it('stores tokens with their scopes, lists them newest first and keeps the first revocation', async () => {
    const accounts = new PgAccounts(ex);
    const token = (id: string, createdAt: string) => ({
      id,
      userId: 'u1',
      name: id,
      scopes: ['search', 'crawl'],
      tokenHash: `hash-${id}`,
      prefix: 'wvr_…',
      expiresAt: null,
      revokedAt: null,
      lastUsedAt: null,
      createdAt,
    });
    await accounts.insertToken(token('t1', '2026-01-01T00:00:00.000Z'));
    await accounts.insertToken(token('t2', '2026-01-02T00:00:00.000Z'));
    expect((await accounts.tokensOf('u1')).map((t) => t.id)).toEqual(['t2', 't1']);
    expect(await accounts.tokenByHash('hash-t1')).toEqual(token('t1', '2026-01-01T00:00:00.000Z'));
    expect(await accounts.token('t1', 'someone-else')).toBeUndefined();
    await accounts.revokeToken('t1', 'first');
    await accounts.revokeToken('t1', 'second');
    await accounts.touchToken('t1', 'used');
    expect(await accounts.token('t1', 'u1')).toMatchObject({ revokedAt: 'first', lastUsedAt: 'used' });
  });

  it('keeps the first value of a setting however many processes initialise it at once', async () => {
    const accounts = new PgAccounts(ex);
    const values = await Promise.all(['a', 'b', 'c', 'd'].map((v) => accounts.settingOrInit('signing_secret', v)));
    expect(new Set(values).size).toBe(1);
    expect(await accounts.setting('signing_secret')).toBe(values[0]);
  });

  it('counts exactly up to the limit when many servers take requests at once, and forgets old windows', async () => {
    const limits = new PgRateLimits(ex);
    const windows = [
      { window: 'hour' as const, start: 3_600_000, limit: 10 },
      { window: 'day' as const, start: 0, limit: 1_000 },
    ];
    const outcomes = await Promise.all(Array.from({ length: 25 }, () => limits.count('u1', 'requests', windows, 0)));
    expect(outcomes.filter((o) => o.counted)).toHaveLength(10);
    expect(outcomes.filter((o) => o.counted).map((o) => o.used[0]).sort((a, b) => a! - b!)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const next = await limits.count('u1', 'requests', [{ window: 'hour', start: 7_200_000, limit: 10 }], 3_600_001);
    expect(next).toEqual({ counted: true, used: [0] });
    const { rows } = await store.pool.query(`SELECT window_start FROM rate_limit_counters WHERE user_id = 'u1' ORDER BY window_start`);
    expect(rows.map((r: { window_start: number }) => r.window_start)).toEqual([7_200_000]);
  });
});
