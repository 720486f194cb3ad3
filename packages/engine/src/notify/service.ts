import type { EngineContext } from '../context.js';
import { errors } from '../core/errors.js';
import { parseInput } from '../core/validate.js';
import { MINUTE } from '../core/clock.js';
import { every, type Loop } from '../core/every.js';
import type { Principal } from '../accounts/schemas.js';
import type { AccountsService } from '../accounts/service.js';
import type { DeliveryRecord } from '../store/ports/notify.js';
import {
  DeliveryListQuery,
  EmitInput,
  type Delivery,
  type DeliveryList,
  type DeliverDueResult,
  type DeliveryChannel,
  type EmittedEvent,
  type EventKind,
  type WebhookPayload,
  type WebhookSecret,
  type WebhookSecretInfo,
} from './schemas.js';
import { secretFromBytes, signedHeaders } from './signing.js';
import { retryDelay } from './backoff.js';
import { WebhookSender, type SendResult } from './webhook.js';
import { EmailSender } from './email.js';
import { emailFor } from './email-text.js';

/** How long a claimed delivery is held before another worker may try it (crash safety). */
const LEASE_MS = 5 * MINUTE;

/**
 * The notification outbox. `emit` only writes rows; `deliverDue` sends what the engine clock
 * says is due, records each attempt and schedules the next one with exponential backoff.
 */
export class NotifyService {
  private readonly webhooks: WebhookSender;
  private readonly email: EmailSender;
  private loop: Loop | undefined;

  constructor(
    private readonly ctx: EngineContext,
    private readonly accounts: AccountsService,
  ) {
    this.webhooks = new WebhookSender(ctx.options.allowPrivateNetwork, ctx.options.userAgent);
    this.email = new EmailSender(ctx.options.smtpUrl, ctx.options.emailFrom);
  }

  /**
   * At creation, a webhook target the sender would refuse (a private, loopback or link-local
   * address, unless the private network is allowed) is a 400 rather than a dozen failed deliveries.
   */
  assertWebhookTarget(url: string | undefined, path = 'webhook_url'): void {
    const refused = url ? this.webhooks.refusal(url) : null;
    if (!refused) return;
    throw errors.validation('webhook_url_not_allowed', `Invalid request body: ${path} is not deliverable: ${refused}.`, {
      details: { fields: [{ path, code: 'webhook_url_not_allowed', message: refused }] },
      suggestions: ['Use a public http(s) receiver; private networks are reachable only when the server allows them (allowPrivateNetwork).'],
    });
  }

  /** Stores an event for each of its targets; delivery happens in `deliverDue`. */
  async emit(input: EmitInput): Promise<EmittedEvent> {
    const event = parseInput(EmitInput, input, 'notification');
    const targets: [DeliveryChannel, string][] = [];
    if (event.webhookUrl) targets.push(['webhook', event.webhookUrl]);
    if (event.email) targets.push(['email', event.email === true ? (await this.accounts.getUser(event.userId)).email : event.email]);
    if (targets.length === 0) {
      throw errors.validation('notification_target_required', 'A notification needs a webhookUrl or an email target.');
    }
    const id = `msg_${this.ctx.random.uuid().replace(/-/g, '')}`;
    const now = this.ctx.clock.now();
    const payload: WebhookPayload = { id, type: event.kind, timestamp: now.toISOString(), data: event.data };
    const rows = targets.map(([channel, target]): DeliveryRecord => ({
      id: this.ctx.random.uuid(),
      eventId: id,
      userId: event.userId,
      kind: event.kind,
      payload: JSON.stringify(payload),
      channel,
      target,
      status: 'pending',
      attempts: 0,
      nextAttemptAt: now.getTime(),
      lastError: null,
      lastStatusCode: null,
      createdAt: now.toISOString(),
      deliveredAt: null,
    }));
    await this.ctx.store.notify.addDeliveries(rows);
    return { id, kind: event.kind, deliveries: rows.map(toDelivery) };
  }

  /** Sends every delivery due by the engine clock (up to `limit`), one attempt each. */
  async deliverDue(options: { limit?: number } = {}): Promise<DeliverDueResult> {
    const now = this.ctx.clock.now().getTime();
    const claimed = await this.ctx.store.notify.claimDue(now, options.limit ?? 100, now + LEASE_MS);
    const result: DeliverDueResult = { attempted: claimed.length, delivered: 0, retrying: 0, failed: 0 };
    for (const row of claimed) {
      const outcome = await this.attempt(row);
      const status = await this.record(row, outcome);
      if (status === 'delivered') result.delivered++;
      else if (status === 'failed') result.failed++;
      else result.retrying++;
    }
    return result;
  }

  /** Creates or replaces the caller's signing secret and shows it this once. */
  async rotateSecret(principal: Principal): Promise<WebhookSecret> {
    const secret = secretFromBytes(this.ctx.random.bytes(32));
    const createdAt = this.ctx.clock.now().toISOString();
    await this.ctx.store.notify.putSecret(principal.userId, secret, createdAt);
    return { secret, created_at: createdAt };
  }

  async secretInfo(principal: Principal): Promise<WebhookSecretInfo> {
    const row = await this.ctx.store.notify.secret(principal.userId);
    if (!row) return { exists: false, prefix: null, created_at: null };
    return { exists: true, prefix: row.secret.slice(0, 10), created_at: row.createdAt };
  }

  /** The caller's deliveries, newest first, with attempts and the last error. */
  async listDeliveries(principal: Principal, query: unknown = {}): Promise<DeliveryList> {
    const q = parseInput(DeliveryListQuery, query, 'query');
    const { rows, total } = await this.ctx.store.notify.listDeliveries(principal.userId, q);
    return { data: rows.map(toDelivery), total, limit: q.limit, offset: q.offset };
  }

  /** The deliveries of one event, for callers that want to show or assert them. */
  async deliveriesOf(eventId: string): Promise<Delivery[]> {
    return (await this.ctx.store.notify.deliveriesOf(eventId)).map(toDelivery);
  }

  /**
   * Sends the outbox in the background every `intervalMs` of wall time (due times still come
   * from the engine clock). For long-running hosts: `wvr serve`, `wvr worker`. Idempotent.
   */
  start(intervalMs = 5_000): void {
    this.loop ??= every(intervalMs, () => this.deliverDue());
  }

  async close(): Promise<void> {
    await this.loop?.stop();
    this.loop = undefined;
    this.email.close();
    await this.webhooks.close();
  }

  private async attempt(row: DeliveryRecord): Promise<SendResult> {
    const payload = JSON.parse(row.payload) as WebhookPayload;
    if (row.channel === 'email') {
      const sent = await this.email.send({ to: row.target, ...emailFor(payload) });
      return { ok: sent.ok, statusCode: null, error: sent.error };
    }
    const timestamp = Math.floor(this.ctx.clock.now().getTime() / 1000);
    return this.webhooks.send(row.target, signedHeaders(await this.signingSecret(row.userId), row.eventId, timestamp, row.payload), row.payload);
  }

  private async record(row: DeliveryRecord, outcome: SendResult): Promise<Delivery['status']> {
    const now = this.ctx.clock.now();
    const attempts = row.attempts + 1;
    const delay = outcome.ok ? null : retryDelay(attempts);
    const status = outcome.ok ? 'delivered' : delay === null ? 'failed' : 'pending';
    await this.ctx.store.notify.recordAttempt(row.id, {
      status,
      nextAttemptAt: delay === null ? null : now.getTime() + delay,
      lastError: outcome.error,
      lastStatusCode: outcome.statusCode,
      deliveredAt: outcome.ok ? now.toISOString() : null,
    });
    return status;
  }

  /** A user who never asked for a secret still gets signed webhooks; rotating shows them a new one. */
  private async signingSecret(userId: string): Promise<string> {
    const stored = await this.ctx.store.notify.secret(userId);
    if (stored) return stored.secret;
    return this.ctx.store.notify.secretOrInit(userId, secretFromBytes(this.ctx.random.bytes(32)), this.ctx.clock.now().toISOString());
  }
}

function toDelivery(row: DeliveryRecord): Delivery {
  return {
    id: row.id,
    event_id: row.eventId,
    kind: row.kind as EventKind,
    channel: row.channel,
    target: row.target,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: row.nextAttemptAt === null ? null : new Date(row.nextAttemptAt).toISOString(),
    last_error: row.lastError,
    last_status_code: row.lastStatusCode,
    created_at: row.createdAt,
    delivered_at: row.deliveredAt,
  };
}
