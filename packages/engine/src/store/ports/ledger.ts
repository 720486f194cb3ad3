export type LedgerKind = 'grant' | 'reserve' | 'commit' | 'release' | 'charge' | 'refund';

/**
 * One ledger entry. The ledger is append-only and the sum of a user's amounts is their balance: a
 * reservation is a negative `reserve` entry, its `commit` gives back what was not used, a `release`
 * all of it; `charge` debits at once.
 */
export interface LedgerRecord {
  id: string;
  /** Assigned by the store on append: increasing over the whole ledger (a user's entries in commit order). */
  seq: number;
  userId: string;
  kind: LedgerKind;
  amount: number;
  reservationId: string | null;
  operation: string | null;
  note: string | null;
  /** The month (`YYYY-MM`) a monthly grant is for; null on every other entry. */
  period: string | null;
  createdAt: string;
}

export type ReservationStatus = 'open' | 'committed' | 'released';

/** Credits held for work whose cost is known only afterwards; the money itself moves only in the ledger. */
export interface ReservationRecord {
  id: string;
  userId: string;
  operation: string;
  amount: number;
  used: number;
  status: ReservationStatus;
  createdAt: string;
  closedAt: string | null;
}

/** What recording use against a reservation did: only 'used' changed anything. */
export type UseOutcome = 'used' | 'over_budget' | 'missing' | 'closed';

/**
 * The credit ledger and its reservations. The credits service decides from reads (balance, grants,
 * holds) and writes inside `store.atomically`; the driver makes that decision safe against every other
 * writer. SQLite has one writer per file (the transaction is IMMEDIATE). PostgreSQL has many, so inside
 * a transaction every read of a user's money (`balance`, `held`, the grant reads) and every append
 * first locks that account until the transaction ends.
 */
export interface LedgerPort {
  /** Appends one entry, numbered by the store (never `max + 1` where writers run concurrently). */
  appendEntry(entry: Omit<LedgerRecord, 'seq'>): Promise<LedgerRecord>;
  /** The sum of the user's entries. */
  balance(userId: string): Promise<number>;
  /** The user's latest entries, newest first. */
  recentEntries(userId: string, limit: number): Promise<LedgerRecord[]>;
  /** Whether the user has a monthly grant for `period` (`YYYY-MM`). */
  hasPeriodGrant(userId: string, period: string): Promise<boolean>;
  /** The seq of the user's latest monthly grant; undefined before the first. */
  lastPeriodGrantSeq(userId: string): Promise<number | undefined>;
  /** What the user's entries after `seq`, grants left out, took from the balance (positive when spent). */
  spentSince(userId: string, seq: number): Promise<number>;
  insertReservation(row: Omit<ReservationRecord, 'closedAt'>): Promise<void>;
  reservation(id: string): Promise<ReservationRecord | undefined>;
  /** What the user's open reservations still hold (reserved minus used). */
  held(userId: string): Promise<number>;
  /**
   * Adds `amount` to an open reservation's use only while it stays within what was reserved, in one
   * atomic step: concurrent users of one reservation never take it past its amount. Needs no
   * transaction around it (the crawl path calls it once per page).
   */
  useReserved(id: string, amount: number): Promise<UseOutcome>;
  /** Raises an open reservation's amount by `amount` (the matching `reserve` entry is the caller's); false when it is not open. */
  growReservation(id: string, amount: number): Promise<boolean>;
  /**
   * Closes an open reservation and returns it as closed, in one step: its `used` is final, so what goes
   * back is computed from it, never from an earlier read that a concurrent use may have outdated.
   * Undefined when it was not open (closed by someone else meanwhile, or missing).
   */
  closeReservation(id: string, status: Exclude<ReservationStatus, 'open'>, at: string): Promise<ReservationRecord | undefined>;
}
