import { beforeAll, describe, expect, it } from 'vitest';
import { PgExecutor } from './executor.js';
import { PgNotify } from './notify.js';
import { usePostgres } from './testing.js';
import type { DeliveryRecord } from '../ports/notify.js';

const store = usePostgres('notify', { max: 4 });
let notify: PgNotify;

beforeAll(async () => {
  notify = new PgNotify(new PgExecutor(store.pool));
}, 120_000);

const delivery = (id: string, userId: string, nextAttemptAt: number, createdAt: string): DeliveryRecord => ({
  id,
  eventId: `evt-${id}`,
  userId,
  kind: 'crawl.completed',
  payload: JSON.stringify({ id }),
  channel: 'webhook',
  target: 'https://example.test/hook',
  status: 'pending',
  attempts: 0,
  nextAttemptAt,
  lastError: null,
  lastStatusCode: null,
  createdAt,
  deliveredAt: null,
});

describe('notify outbox on PostgreSQL', () => {
  it('claims each due delivery once across concurrent claimants, earliest first, and records attempts', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => delivery(`d${i}`, 'u1', 1_000 + i, `2026-01-01T00:00:${String(i).padStart(2, '0')}.000Z`));
    await notify.addDeliveries([...rows, delivery('later', 'u1', 99_999, '2026-01-01T00:01:00.000Z')]);
    // Four servers claim at once: between them every due row, none twice, none not yet due.
    const claims = await Promise.all([0, 1, 2, 3].map(() => notify.claimDue(5_000, 10, 65_000)));
    const ids = claims.flat().map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual(rows.map((r) => r.id).sort());
    for (const claim of claims) {
      const order = claim.map((d) => Number(d.id.slice(1)));
      expect(order).toEqual([...order].sort((a, b) => a - b));
    }
    expect(claims.flat().every((d) => d.nextAttemptAt === 65_000)).toBe(true);
    expect(await notify.claimDue(5_000, 10, 65_000)).toEqual([]);

    await notify.recordAttempt('d0', { status: 'delivered', nextAttemptAt: null, lastError: null, lastStatusCode: 200, deliveredAt: '2026-01-01T00:02:00.000Z' });
    expect((await notify.deliveriesOf('evt-d0'))[0]).toMatchObject({ status: 'delivered', attempts: 1, nextAttemptAt: null, lastStatusCode: 200 });
  });

  it('lists a user’s deliveries newest first with the matching total', async () => {
    await notify.addDeliveries([delivery('a1', 'u2', 0, '2026-02-01T00:00:00.000Z'), delivery('a2', 'u2', 0, '2026-02-02T00:00:00.000Z'), delivery('b1', 'u3', 0, '2026-02-03T00:00:00.000Z')]);
    await notify.recordAttempt('a1', { status: 'failed', nextAttemptAt: null, lastError: 'gone', lastStatusCode: 410, deliveredAt: null });
    const all = await notify.listDeliveries('u2', { limit: 10, offset: 0 });
    expect(all.total).toBe(2);
    expect(all.rows.map((r) => r.id)).toEqual(['a2', 'a1']);
    expect(await notify.listDeliveries('u2', { status: 'failed', limit: 10, offset: 0 })).toMatchObject({ total: 1, rows: [{ id: 'a1', lastError: 'gone' }] });
  });

  it('keeps the first signing secret written and replaces it on rotation', async () => {
    const [first, second] = await Promise.all([notify.secretOrInit('u4', 'whsec_a', 't1'), notify.secretOrInit('u4', 'whsec_b', 't2')]);
    expect(first).toBe(second);
    await notify.putSecret('u4', 'whsec_c', 't3');
    expect(await notify.secret('u4')).toEqual({ secret: 'whsec_c', createdAt: 't3' });
  });
});
