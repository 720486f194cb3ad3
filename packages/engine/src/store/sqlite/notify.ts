import type Database from 'better-sqlite3';
import { and, count, desc, eq, lte, sql } from 'drizzle-orm';
import type { Db } from './open.js';
import type { DeliveryStatus } from '../../notify/schemas.js';
import type { DeliveryAttempt, DeliveryRecord } from '../ports/notify.js';
import { notifyDeliveries, webhookSecrets } from './tables/notify.js';

/** The outbox and signing secrets: today's drizzle statements. */
export class SqliteNotify {
  constructor(
    private readonly sqlite: Database.Database,
    private readonly db: Db,
  ) {}

  addDeliveries(rows: readonly DeliveryRecord[]): void {
    if (rows.length > 0) this.db.insert(notifyDeliveries).values([...rows]).run();
  }

  claimDue(now: number, limit: number, leaseUntil: number): DeliveryRecord[] {
    return this.sqlite
      .transaction(() => {
        const due = this.db
          .select()
          .from(notifyDeliveries)
          .where(and(eq(notifyDeliveries.status, 'pending'), lte(notifyDeliveries.nextAttemptAt, now)))
          .orderBy(notifyDeliveries.nextAttemptAt)
          .limit(limit)
          .all();
        for (const row of due) {
          this.db.update(notifyDeliveries).set({ nextAttemptAt: leaseUntil }).where(eq(notifyDeliveries.id, row.id)).run();
        }
        return due.map((row) => ({ ...row, nextAttemptAt: leaseUntil }));
      })
      .immediate();
  }

  recordAttempt(id: string, attempt: DeliveryAttempt): void {
    this.db
      .update(notifyDeliveries)
      .set({ ...attempt, attempts: sql`${notifyDeliveries.attempts} + 1` })
      .where(eq(notifyDeliveries.id, id))
      .run();
  }

  listDeliveries(userId: string, filter: { status?: DeliveryStatus | undefined; limit: number; offset: number }): { rows: DeliveryRecord[]; total: number } {
    const where = and(eq(notifyDeliveries.userId, userId), filter.status ? eq(notifyDeliveries.status, filter.status) : undefined);
    const total = this.db.select({ n: count() }).from(notifyDeliveries).where(where).get()!.n;
    const rows = this.db
      .select()
      .from(notifyDeliveries)
      .where(where)
      .orderBy(desc(notifyDeliveries.createdAt), desc(notifyDeliveries.id))
      .limit(filter.limit)
      .offset(filter.offset)
      .all();
    return { rows, total };
  }

  deliveriesOf(eventId: string): DeliveryRecord[] {
    return this.db.select().from(notifyDeliveries).where(eq(notifyDeliveries.eventId, eventId)).all();
  }

  secret(userId: string): { secret: string; createdAt: string } | undefined {
    return this.db.select({ secret: webhookSecrets.secret, createdAt: webhookSecrets.createdAt }).from(webhookSecrets).where(eq(webhookSecrets.userId, userId)).get();
  }

  putSecret(userId: string, secret: string, createdAt: string): void {
    this.db
      .insert(webhookSecrets)
      .values({ userId, secret, createdAt })
      .onConflictDoUpdate({ target: webhookSecrets.userId, set: { secret, createdAt } })
      .run();
  }

  secretOrInit(userId: string, initial: string, createdAt: string): string {
    this.db.insert(webhookSecrets).values({ userId, secret: initial, createdAt }).onConflictDoNothing().run();
    return this.secret(userId)!.secret;
  }
}
