import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com). The secret is `whsec_` plus
 * base64 key bytes; the HMAC key is those decoded bytes, so the official verifier libraries
 * accept our signatures as they are.
 */
export const SECRET_PREFIX = 'whsec_';

export function secretFromBytes(bytes: Buffer): string {
  return SECRET_PREFIX + bytes.toString('base64');
}

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/** The value of the `webhook-signature` header: `v1,` + base64(HMAC-SHA256(key, id.timestamp.body)). */
export function sign(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

export function signedHeaders(secret: string, id: string, timestampSeconds: number, body: string): SignedHeaders {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': sign(secret, id, timestampSeconds, body),
  };
}

/**
 * Checks a received `webhook-signature` header (space-separated `v1,sig` entries) against the
 * secret; used by the examples and by receivers written on top of the engine.
 */
export function verify(secret: string, headers: SignedHeaders, body: string): boolean {
  const expected = Buffer.from(sign(secret, headers['webhook-id'], Number(headers['webhook-timestamp']), body).slice(3));
  return headers['webhook-signature'].split(' ').some((entry) => {
    const [version, mac] = entry.split(',');
    if (version !== 'v1' || mac === undefined) return false;
    const given = Buffer.from(mac);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
