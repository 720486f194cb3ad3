import { and, desc, eq, sql } from 'drizzle-orm';
import type Database from 'better-sqlite3';
import type { EngineContext } from '../context.js';
import { errors } from '../core/errors.js';
import type { AccountsService } from '../accounts/service.js';
import type { Principal } from '../accounts/schemas.js';
import { creditLedger, creditReservations } from '../store/sqlite/tables/credits.js';
import type { Price } from './pricing.js';
import type { CreditsInfo, CreditsSummary, LedgerEntry } from './schemas.js';
import { CreditStatements, type LedgerRow, type ReservationRow } from './statements.js';

type LedgerKind = LedgerRow['kind'];

export interface Reservation {
  id: string;
  userId: string;
  amount: number;
  used: number;
}

/**
 * Credits live in an append-only ledger whose sum is the balance. Every debit runs in an
 * IMMEDIATE transaction, so concurrent callers, in this process or another on the same file,
 * cannot both spend the same credit.
 */
export class CreditsService {
  private readonly q: CreditStatements;
  private readonly transaction: Database.Transaction<(fn: () => unknown) => unknown>;

  constructor(
    private readonly ctx: EngineContext,
    private readonly accounts: AccountsService,
  ) {
    this.q = new CreditStatements(ctx.sqlite);
    this.transaction = ctx.sqlite.transaction((fn: () => unknown) => fn());
  }

  balance(userId: string): number {
    return this.atomically(() => {
      this.applyMonthlyGrant(userId);
      return this.sum(userId);
    });
  }

  grant(userId: string, amount: number, note = 'manual grant'): LedgerEntry {
    if (!Number.isInteger(amount) || amount <= 0) {
      throw errors.validation('amount_out_of_range', 'A grant must be a positive whole number of credits.', {
        details: { amount },
      });
    }
    this.accounts.getUser(userId);
    return this.atomically(() => toEntry(this.append(userId, 'grant', amount, { note })));
  }

  /** Debits a known price at once; 402 with nothing charged when the balance is short. */
  charge(userId: string, price: Price, operation: string): CreditsInfo {
    return this.atomically(() => {
      this.applyMonthlyGrant(userId);
      const balance = this.sum(userId);
      if (balance < price.credits && this.metered(userId)) throw errors.insufficientCredits(price.credits, balance, { details: { operation } });
      if (price.credits > 0) this.append(userId, 'charge', -price.credits, { operation });
      return info(price.credits, balance - price.credits, price);
    });
  }

  /** What a 402 would say, without charging: used by dry runs and estimates. */
  canAfford(userId: string, credits: number): { would_succeed: boolean; credits_balance: number } {
    const balance = this.balance(userId);
    return { would_succeed: balance >= credits || !this.metered(userId), credits_balance: balance };
  }

  /** Holds credits for work whose final cost is known only afterwards. */
  reserve(userId: string, amount: number, operation: string): Reservation {
    return this.atomically(() => {
      this.applyMonthlyGrant(userId);
      const balance = this.sum(userId);
      if (balance < amount && this.metered(userId)) throw errors.insufficientCredits(amount, balance, { details: { operation } });
      const id = this.ctx.random.uuid();
      this.q.insertReservation.run({ id, userId, operation, amount, used: 0, status: 'open', createdAt: this.now() });
      this.append(userId, 'reserve', -amount, { operation, reservationId: id });
      return { id, userId, amount, used: 0 };
    });
  }

  /**
   * Records use against an open reservation; false when it would exceed what was reserved,
   * so a job stops at its budget instead of overdrawing.
   */
  use(reservationId: string, amount: number): boolean {
    return this.atomically(() => {
      const r = this.openReservation(reservationId);
      if (r.used + amount > r.amount) return false;
      this.q.addUsed.run(amount, reservationId);
      return true;
    });
  }

  /**
   * Records use beyond what was reserved by reserving the difference first, when the balance
   * allows: for work whose price rose on the way (a page `render: auto` found to be an
   * application shell costs the rendered price). False, with nothing changed, when it does not.
   */
  useBeyond(reservationId: string, amount: number): boolean {
    return this.atomically(() => {
      const r = this.openReservation(reservationId);
      const missing = r.used + amount - r.amount;
      if (missing > 0) {
        if (this.sum(r.userId) < missing && this.metered(r.userId)) return false;
        this.q.growReservation.run(missing, reservationId);
        this.append(r.userId, 'reserve', -missing, { operation: r.operation, reservationId });
      }
      this.q.addUsed.run(amount, reservationId);
      return true;
    });
  }

  /** Ends a reservation: what was used stays spent, the rest goes back. */
  commit(reservationId: string, price: Pick<Price, 'pricing_tier' | 'advanced_features'>): CreditsInfo {
    return this.atomically(() => {
      const r = this.openReservation(reservationId);
      this.close(r, 'committed');
      const back = r.amount - r.used;
      if (back > 0) this.append(r.userId, 'commit', back, { operation: r.operation, reservationId, note: `used ${r.used}` });
      return info(r.used, this.sum(r.userId), price);
    });
  }

  /** Gives back everything a reservation still holds (cancel, abort, failure). Idempotent. */
  release(reservationId: string): void {
    this.atomically(() => {
      const r = this.q.reservation.get(reservationId);
      if (!r || r.status !== 'open') return;
      this.close(r, 'released');
      const back = r.amount - r.used;
      if (back > 0) this.append(r.userId, 'release', back, { operation: r.operation, reservationId });
    });
  }

  refund(userId: string, amount: number, note: string): void {
    this.atomically(() => this.append(userId, 'refund', amount, { note }));
  }

  reservation(reservationId: string): Reservation & { status: string } {
    const r = this.q.reservation.get(reservationId);
    if (!r) throw errors.notFound('reservation', reservationId);
    return { id: r.id, userId: r.userId, amount: r.amount, used: r.used, status: r.status };
  }

  /** `GET /v1/credits`. */
  summary(principal: Principal): CreditsSummary {
    const user = this.accounts.getUser(principal.userId);
    const balance = this.balance(user.id);
    const reserved = this.ctx.db
      .select({ held: sql<number>`coalesce(sum(${creditReservations.amount} - ${creditReservations.used}), 0)` })
      .from(creditReservations)
      .where(and(eq(creditReservations.userId, user.id), eq(creditReservations.status, 'open')))
      .get()!.held;
    const recent = this.ctx.db
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.userId, user.id))
      .orderBy(desc(creditLedger.seq))
      .limit(20)
      .all()
      .map(toEntry);
    const { start, end } = monthOf(this.ctx.clock.now());
    return {
      balance,
      reserved,
      plan: user.plan,
      monthly_grant: this.ctx.options.monthlyGrants[user.plan],
      period_start: start.toISOString(),
      period_end: end.toISOString(),
      recent,
    };
  }

  /** The ledger sum, read fresh: tests compare it with what responses report. */
  ledgerSum(userId: string): number {
    return this.sum(userId);
  }

  /**
   * The plan's monthly credits arrive on the first use in each calendar month (UTC). Monthly
   * credits do not pile up, while credits above them (operator grants) are kept: spending draws
   * on the month's credits first, so what is left of last month's credits (its grant minus what
   * was spent since) is topped up to the grant, and everything else in the balance stays. A
   * user granted 50 before their first use has 150 in their first month.
   */
  private applyMonthlyGrant(userId: string): void {
    const period = monthOf(this.ctx.clock.now()).key;
    if (this.q.grantInPeriod.get(userId, period)) return;
    const plan = this.accounts.getUser(userId).plan;
    const monthly = this.ctx.options.monthlyGrants[plan];
    const last = this.q.lastMonthlyGrant.get(userId);
    const balance = this.sum(userId);
    const monthlyLeft = last ? Math.min(balance, Math.max(0, monthly - this.q.spentSince.get(userId, last.seq)!.spent)) : 0;
    this.append(userId, 'grant', monthly - monthlyLeft, { note: `monthly ${plan} grant for ${period}`, period });
  }

  /** Whether the balance limits this account: every plan but `local`, whose usage is recorded without a limit. */
  private metered(userId: string): boolean {
    return this.accounts.getUser(userId).plan !== 'local';
  }

  private openReservation(reservationId: string): ReservationRow {
    const r = this.q.reservation.get(reservationId);
    if (!r) throw errors.notFound('reservation', reservationId);
    if (r.status !== 'open') {
      throw errors.conflict('reservation_closed', `Reservation ${reservationId} is already ${r.status}.`);
    }
    return r;
  }

  private close(r: { id: string }, status: 'committed' | 'released'): void {
    this.q.closeReservation.run(status, this.now(), r.id);
  }

  private sum(userId: string): number {
    return this.q.ledgerSum.get(userId)!.total;
  }

  private append(
    userId: string,
    kind: LedgerKind,
    amount: number,
    extra: { operation?: string; reservationId?: string; note?: string; period?: string },
  ): LedgerRow {
    const row: LedgerRow = {
      id: this.ctx.random.uuid(),
      seq: (this.q.lastSeq.get()?.seq ?? 0) + 1,
      userId,
      kind,
      amount,
      reservationId: extra.reservationId ?? null,
      operation: extra.operation ?? null,
      note: extra.note ?? null,
      period: extra.period ?? null,
      createdAt: this.now(),
    };
    this.q.insertLedger.run(row);
    return row;
  }

  /** IMMEDIATE takes the write lock before the first read, so no other writer can spend between our read and write. */
  private atomically<T>(fn: () => T): T {
    return this.transaction.immediate(fn) as T;
  }

  private now(): string {
    return this.ctx.clock.now().toISOString();
  }
}

function info(consumed: number, balanceAfter: number, price: Pick<Price, 'pricing_tier' | 'advanced_features'>): CreditsInfo {
  return { consumed, balance_after: balanceAfter, pricing_tier: price.pricing_tier, advanced_features: price.advanced_features };
}

function toEntry(row: LedgerRow): LedgerEntry {
  return {
    id: row.id,
    kind: row.kind,
    amount: row.amount,
    operation: row.operation,
    reservation_id: row.reservationId,
    note: row.note,
    created_at: row.createdAt,
  };
}

function monthOf(at: Date): { key: string; start: Date; end: Date } {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const end = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  return { key: start.toISOString().slice(0, 7), start, end };
}
