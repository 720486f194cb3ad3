import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { openTestEngine, type TestEngine } from '../testing/engine.js';
import type { Principal } from '../accounts/schemas.js';
import { RETRY_POLICY } from './backoff.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A real HTTP receiver on loopback that answers each request with the next status in `statuses`. */
async function startReceiver(statuses: number[]) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = statuses[Math.min(received.length - 1, statuses.length - 1)]!;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** The documented algorithm, written out independently of notify/signing.ts. */
function expectedSignature(secret: string, headers: IncomingHttpHeaders, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const mac = createHmac('sha256', key)
    .update(`${String(headers['webhook-id'])}.${String(headers['webhook-timestamp'])}.${body}`)
    .digest('base64');
  return `v1,${mac}`;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function engineWith(options: Parameters<typeof openTestEngine>[0] = {}): Promise<{ t: TestEngine; principal: Principal }> {
  const t = openTestEngine(options);
  cleanups.push(() => t.dispose());
  const user = await t.engine.accounts.ensureUser({ email: 'owner@example.test' });
  return { t, principal: { userId: user.id, email: user.email, plan: user.plan, tokenId: 'local', scopes: ['workflow'] } };
}

describe('webhook delivery', () => {
  it('delivers a signed event that verifies with the secret shown at rotation, and retries after a 500', async () => {
    const receiver = await startReceiver([500, 200]);
    cleanups.push(receiver.close);
    const { t, principal } = await engineWith({ allowPrivateNetwork: true });
    const { secret } = await t.engine.notify.rotateSecret(principal);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);

    const event = await t.engine.notify.emit({
      userId: principal.userId,
      kind: 'workflow.changes.detected',
      data: { workflow_id: 'w1', net_new_count: 2 },
      webhookUrl: receiver.url,
    });

    expect(await t.engine.notify.deliverDue()).toEqual({ attempted: 1, delivered: 0, retrying: 1, failed: 0 });
    const [afterFirst] = await t.engine.notify.deliveriesOf(event.id);
    expect(afterFirst).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 500, last_error: 'receiver answered 500' });
    expect(afterFirst!.next_attempt_at).toBe(new Date(t.clock.now().getTime() + RETRY_POLICY.baseDelayMs).toISOString());

    // Not due yet: nothing is sent before the backoff has passed on the engine clock.
    t.clock.advance(RETRY_POLICY.baseDelayMs - 1);
    expect((await t.engine.notify.deliverDue()).attempted).toBe(0);
    t.clock.advance(1);
    expect(await t.engine.notify.deliverDue()).toEqual({ attempted: 1, delivered: 1, retrying: 0, failed: 0 });

    expect(receiver.received).toHaveLength(2);
    for (const r of receiver.received) {
      expect(r.headers['webhook-id']).toBe(event.id);
      expect(r.headers['webhook-signature']).toBe(expectedSignature(secret, r.headers, r.body));
    }
    const second = receiver.received[1]!;
    expect(Number(second.headers['webhook-timestamp'])).toBe(Math.floor(t.clock.now().getTime() / 1000));
    expect(JSON.parse(second.body)).toEqual({
      id: event.id,
      type: 'workflow.changes.detected',
      timestamp: '2026-03-10T12:00:00.000Z',
      data: { workflow_id: 'w1', net_new_count: 2 },
    });
    expect((await t.engine.notify.deliveriesOf(event.id))[0]).toMatchObject({ status: 'delivered', attempts: 2, last_status_code: 200 });
  });

  it('signs with the new secret after rotation, so the old one no longer verifies', async () => {
    const receiver = await startReceiver([200]);
    cleanups.push(receiver.close);
    const { t, principal } = await engineWith({ allowPrivateNetwork: true });
    const old = (await t.engine.notify.rotateSecret(principal)).secret;
    const fresh = (await t.engine.notify.rotateSecret(principal)).secret;
    expect(fresh).not.toBe(old);
    await t.engine.notify.emit({ userId: principal.userId, kind: 'crawl.completed', data: { crawl_id: 'c1' }, webhookUrl: receiver.url });
    await t.engine.notify.deliverDue();
    const [r] = receiver.received;
    expect(r!.headers['webhook-signature']).toBe(expectedSignature(fresh, r!.headers, r!.body));
    expect(r!.headers['webhook-signature']).not.toBe(expectedSignature(old, r!.headers, r!.body));
    expect(await t.engine.notify.secretInfo(principal)).toMatchObject({ exists: true, prefix: fresh.slice(0, 10) });
  });

  it('marks a delivery failed after the maximum number of attempts, with the delays of the schedule', async () => {
    const receiver = await startReceiver([503]);
    cleanups.push(receiver.close);
    const { t, principal } = await engineWith({ allowPrivateNetwork: true });
    const event = await t.engine.notify.emit({ userId: principal.userId, kind: 'search.completed', data: {}, webhookUrl: receiver.url });
    const delays: number[] = [];
    for (let i = 0; i < RETRY_POLICY.maxAttempts; i++) {
      await t.engine.notify.deliverDue();
      const [d] = await t.engine.notify.deliveriesOf(event.id);
      if (d!.next_attempt_at === null) break;
      const wait = new Date(d!.next_attempt_at).getTime() - t.clock.now().getTime();
      delays.push(wait);
      t.clock.advance(wait);
    }
    expect(delays).toEqual([30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000, 3_600_000, 3_600_000, 3_600_000, 3_600_000]);
    expect((await t.engine.notify.deliveriesOf(event.id))[0]).toMatchObject({ status: 'failed', attempts: 12, last_status_code: 503 });
    expect(receiver.received).toHaveLength(12);
    t.clock.advance(RETRY_POLICY.maxDelayMs * 10);
    expect((await t.engine.notify.deliverDue()).attempted).toBe(0);
  });

  it('refuses loopback and private targets unless private networks are allowed, by IP and by name', async () => {
    const receiver = await startReceiver([200]);
    cleanups.push(receiver.close);
    const { t, principal } = await engineWith({ allowPrivateNetwork: false });
    const port = new URL(receiver.url).port;
    const targets = [receiver.url, `http://localhost:${port}/hook`, 'http://10.0.0.1/hook', 'http://169.254.169.254/latest'];
    const ids: string[] = [];
    for (const webhookUrl of targets) ids.push((await t.engine.notify.emit({ userId: principal.userId, kind: 'crawl.completed', data: {}, webhookUrl })).id);
    await t.engine.notify.deliverDue();
    for (const id of ids) {
      expect((await t.engine.notify.deliveriesOf(id))[0]!.last_error).toMatch(/^ssrf_blocked: /);
    }
    expect(receiver.received).toHaveLength(0);
  });

  it('rejects an event without a target and an unknown kind with 400', async () => {
    const { t, principal } = await engineWith();
    await expect(t.engine.notify.emit({ userId: principal.userId, kind: 'crawl.completed', data: {} })).rejects.toThrow(
      expect.objectContaining({ status: 400, code: 'notification_target_required' }),
    );
    await expect(
      t.engine.notify.emit({ userId: principal.userId, kind: 'crawl.exploded' as 'crawl.completed', data: {}, webhookUrl: 'https://example.test/' }),
    ).rejects.toThrow(expect.objectContaining({ status: 400 }));
  });

  it('lists the caller’s deliveries only', async () => {
    const { t, principal } = await engineWith();
    const other = await t.engine.accounts.ensureUser({ email: 'other@example.test' });
    await t.engine.notify.emit({ userId: principal.userId, kind: 'crawl.completed', data: {}, webhookUrl: 'https://a.example.test/' });
    await t.engine.notify.emit({ userId: other.id, kind: 'crawl.completed', data: {}, webhookUrl: 'https://b.example.test/' });
    const list = await t.engine.notify.listDeliveries(principal, { limit: 10 });
    expect(list.total).toBe(1);
    expect(list.data[0]!.target).toBe('https://a.example.test/');
  });
});

describe('email delivery', () => {
  it('sends an event through SMTP to the account address', async () => {
    const mails: { to: string[]; raw: string }[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((r) => smtp.close(() => r())));
    const { port } = smtp.server.address() as AddressInfo;
    const { t, principal } = await engineWith({ smtpUrl: `smtp://127.0.0.1:${port}`, emailFrom: 'alerts@wvr.test' });

    const event = await t.engine.notify.emit({
      userId: principal.userId,
      kind: 'workflow.changes.detected',
      data: { workflow_name: 'Price watch', net_new_count: 3 },
      email: true,
    });
    expect(await t.engine.notify.deliverDue()).toMatchObject({ delivered: 1 });
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toEqual(['owner@example.test']);
    expect(mails[0]!.raw).toContain('Subject: [wvr] Changes detected: Price watch');
    expect(mails[0]!.raw).toContain('"net_new_count": 3');
    expect((await t.engine.notify.deliveriesOf(event.id))[0]).toMatchObject({ channel: 'email', status: 'delivered', attempts: 1 });
  });

  it('keeps an email pending with the reason when no SMTP server is configured', async () => {
    const { t, principal } = await engineWith({ smtpUrl: undefined });
    const event = await t.engine.notify.emit({ userId: principal.userId, kind: 'workflow.completed', data: {}, email: 'x@example.test' });
    await t.engine.notify.deliverDue();
    expect((await t.engine.notify.deliveriesOf(event.id))[0]).toMatchObject({ status: 'pending', attempts: 1 });
    expect((await t.engine.notify.deliveriesOf(event.id))[0]!.last_error).toMatch(/^smtp_not_configured/);
  });
});

describe('background delivery', () => {
  it('sends due deliveries from start() without an explicit deliverDue call', async () => {
    const receiver = await startReceiver([200]);
    cleanups.push(receiver.close);
    const { t, principal } = await engineWith({ allowPrivateNetwork: true });
    const event = await t.engine.notify.emit({ userId: principal.userId, kind: 'search.completed', data: { search_id: 's1' }, webhookUrl: receiver.url });
    t.engine.notify.start(10);
    await expect.poll(async () => (await t.engine.notify.deliveriesOf(event.id))[0]!.status).toBe('delivered');
    expect(receiver.received).toHaveLength(1);
  });
});
