import { describe, expect, it } from 'vitest';
import { signWebhook } from '@wvr/engine';
import { verifyWebhook } from './webhooks.js';

const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
const body = JSON.stringify({ type: 'workflow.changes.detected', data: { net_new_count: 2 } });
const at = 1_800_000_000;
const headers = (signature: string, timestamp = at) => ({ 'webhook-id': 'msg_1', 'webhook-timestamp': String(timestamp), 'webhook-signature': signature });

describe('verifyWebhook', () => {
  it('accepts what the engine signs, also among several signatures', async () => {
    const signature = signWebhook(secret, 'msg_1', at, body);
    expect(await verifyWebhook({ secret, headers: headers(signature), body, now: at * 1000 })).toEqual({ ok: true });
    expect(await verifyWebhook({ secret, headers: headers(`v1,AAAA ${signature}`), body, now: at * 1000 })).toEqual({ ok: true });
  });

  it('refuses a changed body, another secret, a stale timestamp and missing headers', async () => {
    const signature = signWebhook(secret, 'msg_1', at, body);
    const other = `whsec_${Buffer.from('another secret of thirty-two byt').toString('base64')}`;
    expect(await verifyWebhook({ secret, headers: headers(signature), body: body.replace('2', '3'), now: at * 1000 })).toEqual({ ok: false, reason: 'bad_signature' });
    expect(await verifyWebhook({ secret: other, headers: headers(signature), body, now: at * 1000 })).toEqual({ ok: false, reason: 'bad_signature' });
    expect(await verifyWebhook({ secret, headers: headers(signature), body, now: (at + 301) * 1000 })).toEqual({ ok: false, reason: 'stale_timestamp' });
    expect(await verifyWebhook({ secret, headers: { ...headers(signature), 'webhook-id': null }, body, now: at * 1000 })).toEqual({ ok: false, reason: 'missing_headers' });
  });
});

describe('verifyWebhook on malformed input', () => {
  it('returns a verdict instead of throwing', async () => {
    const now = Date.now();
    const headers = (signature: unknown) => ({ 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(now / 1000)), 'webhook-signature': signature as string });
    const secret = 'whsec_' + Buffer.from('0123456789abcdef').toString('base64');
    const verdicts = await Promise.all([
      verifyWebhook({ secret, body: '{}', now, headers: headers('v1,***not base64***') }),
      verifyWebhook({ secret, body: '{}', now, headers: headers('v1,') }),
      verifyWebhook({ secret, body: '{}', now, headers: headers(42) }),
      verifyWebhook({ secret: 'whsec_%%%', body: '{}', now, headers: headers('v1,AAAA') }),
      verifyWebhook({ secret, body: '{}', now, headers: undefined as never }),
    ]);
    expect(verdicts).toEqual([
      { ok: false, reason: 'bad_signature' },
      { ok: false, reason: 'bad_signature' },
      { ok: false, reason: 'missing_headers' },
      { ok: false, reason: 'bad_secret' },
      { ok: false, reason: 'missing_headers' },
    ]);
  });
});
