import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { PgExecutor } from './executor.js';
import { PgLedger } from './ledger.js';
import { usePostgres } from './testing.js';

const WORKER = fileURLToPath(new URL('./worker.fixture.ts', import.meta.url));

const store = usePostgres('ledger', { max: 4 });
let ledger: PgLedger;

beforeAll(async () => {
  ledger = new PgLedger(new PgExecutor(store.pool));
}, 120_000);

const at = '2026-01-01T00:00:00.000Z';

async function account(id: string, credits: number): Promise<void> {
  await store.pool.query(`INSERT INTO users (id, email, created_at) VALUES ($1, $1 || '@test', $2)`, [id, at]);
  await ledger.appendEntry({ id: `${id}-grant`, userId: id, kind: 'grant', amount: credits, reservationId: null, operation: null, note: null, period: null, createdAt: at });
}

describe('credit ledger on PostgreSQL', () => {
  it('4 processes × 50 concurrent reservations against a balance of 10: exactly 10 granted, ledger sum = balance', async () => {
    await account('u1', 10);
    const children = [0, 1, 2, 3].map(() => fork(WORKER, ['ledger', store.url, 'u1'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
    // Every process connected and waiting, then all start at once.
    await Promise.all(children.map((child) => once(child, 'message')));
    const outcomes = children.map(async (child) => {
      const [message] = (await once(child, 'message')) as [{ granted: number }];
      await once(child, 'exit');
      return message.granted;
    });
    for (const child of children) child.send('go');
    const granted = await Promise.all(outcomes);
    expect(granted.reduce((a, b) => a + b, 0)).toBe(10);

    const { rows } = await store.pool.query<{ sum: number; reserves: number; reservations: number }>(
      `SELECT (SELECT SUM(amount) FROM credit_ledger WHERE user_id = 'u1') AS sum,
              (SELECT count(*) FROM credit_ledger WHERE user_id = 'u1' AND kind = 'reserve') AS reserves,
              (SELECT count(*) FROM credit_reservations WHERE user_id = 'u1') AS reservations`,
    );
    expect(rows[0]).toEqual({ sum: 0, reserves: 10, reservations: 10 });
    expect(await ledger.balance('u1')).toBe(0);
    expect(await ledger.held('u1')).toBe(10);
  }, 120_000);

  it('numbers entries from a sequence: unique and increasing, no max + 1', async () => {
    await account('u2', 5);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        ledger.appendEntry({ id: `u2-${i}`, userId: 'u2', kind: 'charge', amount: -1, reservationId: null, operation: 'x', note: null, period: null, createdAt: at }),
      ),
    );
    const entries = await ledger.recentEntries('u2', 100);
    expect(entries).toHaveLength(21);
    expect(new Set(entries.map((e) => e.seq)).size).toBe(21);
    expect(entries.map((e) => e.seq)).toEqual([...entries.map((e) => e.seq)].sort((a, b) => b - a));
  });

  it('uses a reservation only within its amount, and closes it once', async () => {
    await account('u3', 10);
    await ledger.insertReservation({ id: 'r3', userId: 'u3', operation: 'x', amount: 3, used: 0, status: 'open', createdAt: at });
    const uses = await Promise.all(Array.from({ length: 5 }, () => ledger.useReserved('r3', 1)));
    expect(uses.filter((u) => u === 'used')).toHaveLength(3);
    expect(uses.filter((u) => u === 'over_budget')).toHaveLength(2);
    expect(await ledger.useReserved('nope', 1)).toBe('missing');
    expect(await ledger.closeReservation('r3', 'committed', at)).toMatchObject({ status: 'committed', used: 3, closedAt: at });
    expect(await ledger.closeReservation('r3', 'released', at)).toBeUndefined();
    expect(await ledger.useReserved('r3', 1)).toBe('closed');
    expect((await ledger.reservation('r3'))?.used).toBe(3);
  });
});
