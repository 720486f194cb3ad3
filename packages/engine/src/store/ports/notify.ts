import type { DeliveryChannel, DeliveryStatus } from '../../notify/schemas.js';

/** One delivery of one event to one target. `payload` is the JSON body as signed and sent. */
export interface DeliveryRecord {
  id: string;
  eventId: string;
  userId: string;
  kind: string;
  payload: string;
  channel: DeliveryChannel;
  target: string;
  status: DeliveryStatus;
  attempts: number;
  /** Engine-clock ms; null once the delivery is settled. */
  nextAttemptAt: number | null;
  lastError: string | null;
  lastStatusCode: number | null;
  createdAt: string;
  deliveredAt: string | null;
}

/** What one attempt left behind; the store counts the attempt itself. */
export type DeliveryAttempt = Pick<DeliveryRecord, 'status' | 'nextAttemptAt' | 'lastError' | 'lastStatusCode' | 'deliveredAt'>;

/** The notification outbox and the users' webhook signing secrets. */
export interface NotifyPort {
  addDeliveries(rows: readonly DeliveryRecord[]): Promise<void>;
  /**
   * Claims up to `limit` pending deliveries due by `now`, earliest first, moving each one's next
   * attempt to `leaseUntil` in the same step: two engines on one database never take the same one.
   * The records come back as claimed (next attempt at `leaseUntil`).
   */
  claimDue(now: number, limit: number, leaseUntil: number): Promise<DeliveryRecord[]>;
  recordAttempt(id: string, attempt: DeliveryAttempt): Promise<void>;
  /** The user's deliveries, newest first, and how many match. */
  listDeliveries(userId: string, filter: { status?: DeliveryStatus | undefined; limit: number; offset: number }): Promise<{ rows: DeliveryRecord[]; total: number }>;
  deliveriesOf(eventId: string): Promise<DeliveryRecord[]>;

  secret(userId: string): Promise<{ secret: string; createdAt: string } | undefined>;
  /** Creates or replaces the user's secret. */
  putSecret(userId: string, secret: string, createdAt: string): Promise<void>;
  /** The user's secret; when there is none yet, stores `initial` first (the first writer wins). */
  secretOrInit(userId: string, initial: string, createdAt: string): Promise<string>;
}
