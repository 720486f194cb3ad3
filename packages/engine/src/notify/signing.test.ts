import { describe, expect, it } from 'vitest';
import { secretFromBytes, sign, signedHeaders, verify } from './signing.js';

const secret = secretFromBytes(Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'utf8'));

describe('Standard Webhooks signing', () => {
  it('matches the HMAC-SHA256 of id.timestamp.body keyed by the decoded secret', () => {
    // Computed with `openssl dgst -sha256 -hmac MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw -binary | base64`.
    expect(sign(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe(
      'v1,ELhqG0Ku1gwOc1f4jyKdp3SFGFLAOdJ9bvpWLciCakI=',
    );
  });

  it('verifies its own headers and rejects a changed body or a foreign secret', () => {
    const body = '{"type":"crawl.completed"}';
    const headers = signedHeaders(secret, 'msg_1', 1_700_000_000, body);
    expect(verify(secret, headers, body)).toBe(true);
    expect(verify(secret, headers, body.replace('crawl', 'search'))).toBe(false);
    expect(verify(secretFromBytes(Buffer.alloc(32, 7)), headers, body)).toBe(false);
    expect(verify(secret, { ...headers, 'webhook-signature': `v1,bogus ${headers['webhook-signature']}` }, body)).toBe(true);
  });
});
