import type { EngineContext } from '../context.js';
import { errors } from '../core/errors.js';
import type { AccountsService } from '../accounts/service.js';
import type { Principal } from '../accounts/schemas.js';
import type { LedgerKind, LedgerRecord, ReservationRecord } from '../store/ports/ledger.js';
import type { StorePorts } from '../store/ports.js';
import type { Price } from './pricing.js';
import type { CreditsInfo, CreditsSummary, LedgerEntry } from './schemas.js';

export interface Reservation {
  id: string;
  userId: string;
  amount: number;
  used: number;
}

/**
 * Credits live in an append-only ledger whose sum is the balance. Every decision on a balance and
 * the debit it allows run in one `store.atomically`, where the ledger port keeps other writers out
 * (one writer per SQLite file; the account's row lock on PostgreSQL), so concurrent callers, in this
 * process or another, cannot both spend the same credit.
 */
export class CreditsService {
  constructor(
    private readonly ctx: EngineContext,
    private readonly accounts: AccountsService,
  ) {}

  /**
   * A read, once the month's grant is recorded: the ledger only grows and the balance is one sum, so it needs neither
   * the write lock nor the account's lock. Taking them (as it did) put every poll of a running crawl in line behind
   * the crawl's per-page commits, and on PostgreSQL behind its charges, which lock the same account. The month's first
   * read records its grant, in a transaction as every decision on money.
   */
  async balance(userId: string): Promise<number> {
    const { ledger } = this.ctx.store;
    if (await ledger.hasPeriodGrant(userId, monthOf(this.ctx.clock.now()).key)) return ledger.balance(userId);
    return this.ctx.store.atomically(async (tx) => {
      await this.applyMonthlyGrant(tx, userId);
      return tx.ledger.balance(userId);
    });
  }

  async grant(userId: string, amount: number, note = 'manual grant'): Promise<LedgerEntry> {
    if (!Number.isInteger(amount) || amount <= 0) {
      throw errors.validation('amount_out_of_range', 'A grant must be a positive whole number of credits.', {
        details: { amount },
      });
    }
    await this.accounts.getUser(userId);
    return toEntry(await this.append(this.ctx.store, userId, 'grant', amount, { note }));
  }

  /** Debits a known price at once; 402 with nothing charged when the balance is short. */
  charge(userId: string, price: Price, operation: string): Promise<CreditsInfo> {
    return this.ctx.store.atomically(async (tx) => {
      await this.applyMonthlyGrant(tx, userId);
      const balance = await tx.ledger.balance(userId);
      if (balance < price.credits && (await this.metered(userId))) throw errors.insufficientCredits(price.credits, balance, { details: { operation } });
      if (price.credits > 0) await this.append(tx, userId, 'charge', -price.credits, { operation });
      return info(price.credits, balance - price.credits, price);
    });
  }

  /** What a 402 would say, without charging: used by dry runs and estimates. */
  async canAfford(userId: string, credits: number): Promise<{ would_succeed: boolean; credits_balance: number }> {
    const balance = await this.balance(userId);
    return { would_succeed: balance >= credits || !(await this.metered(userId)), credits_balance: balance };
  }

  /** Holds credits for work whose final cost is known only afterwards. */
  reserve(userId: string, amount: number, operation: string): Promise<Reservation> {
    return this.ctx.store.atomically(async (tx) => {
      await this.applyMonthlyGrant(tx, userId);
      const balance = await tx.ledger.balance(userId);
      if (balance < amount && (await this.metered(userId))) throw errors.insufficientCredits(amount, balance, { details: { operation } });
      const id = this.ctx.random.uuid();
      await tx.ledger.insertReservation({ id, userId, operation, amount, used: 0, status: 'open', createdAt: this.now() });
      await this.append(tx, userId, 'reserve', -amount, { operation, reservationId: id });
      return { id, userId, amount, used: 0 };
    });
  }

  /**
   * Records use against an open reservation; false when it would exceed what was reserved,
   * so a job stops at its budget instead of overdrawing. One port call, atomic on its own: a crawl
   * calls this for every page.
   */
  async use(reservationId: string, amount: number): Promise<boolean> {
    const outcome = await this.ctx.store.ledger.useReserved(reservationId, amount);
    if (outcome === 'missing' || outcome === 'closed') throw await this.notOpen(this.ctx.store, reservationId);
    return outcome === 'used';
  }

  /**
   * Records use beyond what was reserved by reserving the difference first, when the balance
   * allows: for work whose price rose on the way (a page `render: auto` found to be an
   * application shell costs the rendered price). False, with nothing changed, when it does not.
   */
  useBeyond(reservationId: string, amount: number): Promise<boolean> {
    return this.ctx.store.atomically(async (tx) => {
      const r = await this.openReservation(tx, reservationId);
      const missing = r.used + amount - r.amount;
      if (missing > 0) {
        // The balance read locks the account (PostgreSQL) before the hold grows.
        if ((await tx.ledger.balance(r.userId)) < missing && (await this.metered(r.userId))) return false;
        await tx.ledger.growReservation(reservationId, missing);
        await this.append(tx, r.userId, 'reserve', -missing, { operation: r.operation, reservationId });
      }
      // False only when another user of the reservation took the room meanwhile (PostgreSQL): the grown
      // hold then stays on the reservation and goes back to the balance when it is committed or released.
      return (await tx.ledger.useReserved(reservationId, amount)) === 'used';
    });
  }

  /** Ends a reservation: what was used stays spent, the rest goes back. */
  commit(reservationId: string, price: Pick<Price, 'pricing_tier' | 'advanced_features'>): Promise<CreditsInfo> {
    return this.ctx.store.atomically(async (tx) => {
      const r = await tx.ledger.closeReservation(reservationId, 'committed', this.now());
      if (!r) throw await this.notOpen(tx, reservationId);
      const back = r.amount - r.used;
      if (back > 0) await this.append(tx, r.userId, 'commit', back, { operation: r.operation, reservationId, note: `used ${r.used}` });
      return info(r.used, await tx.ledger.balance(r.userId), price);
    });
  }

  /** Gives back everything a reservation still holds (cancel, abort, failure). Idempotent. */
  async release(reservationId: string): Promise<void> {
    await this.ctx.store.atomically(async (tx) => {
      // Not open (missing, or closed by another caller, who settled it): nothing to give back.
      const r = await tx.ledger.closeReservation(reservationId, 'released', this.now());
      if (!r) return;
      const back = r.amount - r.used;
      if (back > 0) await this.append(tx, r.userId, 'release', back, { operation: r.operation, reservationId });
    });
  }

  async refund(userId: string, amount: number, note: string): Promise<void> {
    await this.append(this.ctx.store, userId, 'refund', amount, { note });
  }

  async reservation(reservationId: string): Promise<Reservation & { status: string }> {
    const r = await this.ctx.store.ledger.reservation(reservationId);
    if (!r) throw errors.notFound('reservation', reservationId);
    return { id: r.id, userId: r.userId, amount: r.amount, used: r.used, status: r.status };
  }

  /** `GET /v1/credits`. */
  async summary(principal: Principal): Promise<CreditsSummary> {
    const user = await this.accounts.getUser(principal.userId);
    const { balance, reserved, recent } = await this.ctx.store.atomically(async (tx) => {
      await this.applyMonthlyGrant(tx, user.id);
      return { balance: await tx.ledger.balance(user.id), reserved: await tx.ledger.held(user.id), recent: await tx.ledger.recentEntries(user.id, 20) };
    });
    const { start, end } = monthOf(this.ctx.clock.now());
    return {
      balance,
      reserved,
      plan: user.plan,
      monthly_grant: this.ctx.options.monthlyGrants[user.plan],
      period_start: start.toISOString(),
      period_end: end.toISOString(),
      recent: recent.map(toEntry),
    };
  }

  /** The ledger sum, read fresh: tests compare it with what responses report. */
  ledgerSum(userId: string): Promise<number> {
    return this.ctx.store.ledger.balance(userId);
  }

  /**
   * The plan's monthly credits arrive on the first use in each calendar month (UTC). Monthly
   * credits do not pile up, while credits above them (operator grants) are kept: spending draws
   * on the month's credits first, so what is left of last month's credits (its grant minus what
   * was spent since) is topped up to the grant, and everything else in the balance stays. A
   * user granted 50 before their first use has 150 in their first month.
   */
  private async applyMonthlyGrant(tx: StorePorts, userId: string): Promise<void> {
    const period = monthOf(this.ctx.clock.now()).key;
    if (await tx.ledger.hasPeriodGrant(userId, period)) return;
    const { plan } = await this.accounts.getUser(userId);
    const monthly = this.ctx.options.monthlyGrants[plan];
    const last = await tx.ledger.lastPeriodGrantSeq(userId);
    const balance = await tx.ledger.balance(userId);
    const monthlyLeft = last !== undefined ? Math.min(balance, Math.max(0, monthly - (await tx.ledger.spentSince(userId, last)))) : 0;
    await this.append(tx, userId, 'grant', monthly - monthlyLeft, { note: `monthly ${plan} grant for ${period}`, period });
  }

  /** Whether the balance limits this account: every plan but `local`, whose usage is recorded without a limit. */
  private async metered(userId: string): Promise<boolean> {
    return (await this.accounts.getUser(userId)).plan !== 'local';
  }

  private async openReservation(ports: StorePorts, reservationId: string): Promise<ReservationRecord> {
    const r = await ports.ledger.reservation(reservationId);
    if (r?.status !== 'open') throw await this.notOpen(ports, reservationId, r);
    return r;
  }

  /** The error for a reservation that is missing (404) or already closed (409). */
  private async notOpen(ports: StorePorts, reservationId: string, known?: ReservationRecord): Promise<Error> {
    const r = known ?? (await ports.ledger.reservation(reservationId));
    if (!r) return errors.notFound('reservation', reservationId);
    return errors.conflict('reservation_closed', `Reservation ${reservationId} is already ${r.status}.`);
  }

  private append(
    ports: StorePorts,
    userId: string,
    kind: LedgerKind,
    amount: number,
    extra: { operation?: string; reservationId?: string; note?: string; period?: string },
  ): Promise<LedgerRecord> {
    return ports.ledger.appendEntry({
      id: this.ctx.random.uuid(),
      userId,
      kind,
      amount,
      reservationId: extra.reservationId ?? null,
      operation: extra.operation ?? null,
      note: extra.note ?? null,
      period: extra.period ?? null,
      createdAt: this.now(),
    });
  }

  private now(): string {
    return this.ctx.clock.now().toISOString();
  }
}

function info(consumed: number, balanceAfter: number, price: Pick<Price, 'pricing_tier' | 'advanced_features'>): CreditsInfo {
  return { consumed, balance_after: balanceAfter, pricing_tier: price.pricing_tier, advanced_features: price.advanced_features };
}

function toEntry(row: LedgerRecord): LedgerEntry {
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
