/**
 * Verifying wvr's webhooks in a receiver. wvr signs every delivery the Standard Webhooks way:
 * `webhook-signature: v1,<base64 HMAC-SHA256(key, "<webhook-id>.<webhook-timestamp>.<body>")>`,
 * where the key is the base64 bytes after `whsec_` in the secret wvr showed you once
 * (`POST /v1/webhooks/secret`). Web Crypto only, so it runs in Node, Deno, Bun, workers and browsers.
 */
export interface WebhookHeaders {
  'webhook-id': string | null | undefined;
  'webhook-timestamp': string | null | undefined;
  'webhook-signature': string | null | undefined;
}

export interface VerifyWebhookOptions {
  /** The `whsec_...` secret. */
  secret: string;
  headers: WebhookHeaders;
  /** The raw request body, exactly as received (not re-serialised JSON). */
  body: string;
  /** Refuse deliveries whose timestamp is further than this from now; default 300 s (replays). */
  toleranceSeconds?: number;
  /** Now, in ms since the epoch; default Date.now(). */
  now?: number;
}

export type WebhookVerdict = { ok: true } | { ok: false; reason: 'missing_headers' | 'stale_timestamp' | 'bad_signature' | 'bad_secret' };

/** Never throws: malformed headers, signatures or secrets are a verdict with a reason, like any forgery. */
export async function verifyWebhook(options: VerifyWebhookOptions): Promise<WebhookVerdict> {
  const headers = (options.headers ?? {}) as Partial<WebhookHeaders>;
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string' || !id || !/^\d+$/.test(timestamp)) {
    return { ok: false, reason: 'missing_headers' };
  }
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  if (Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? 300)) return { ok: false, reason: 'stale_timestamp' };

  const secret = typeof options.secret === 'string' ? fromBase64(options.secret.replace(/^whsec_/, '')) : null;
  if (!secret || secret.length === 0) return { ok: false, reason: 'bad_secret' };
  const key = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  const signed = new TextEncoder().encode(`${id}.${timestamp}.${String(options.body)}`);
  for (const entry of signatures.split(' ')) {
    const [version, encoded] = entry.split(',');
    const mac = version === 'v1' && encoded ? fromBase64(encoded) : null;
    if (!mac) continue;
    // subtle.verify compares in constant time.
    if (await crypto.subtle.verify('HMAC', key, mac, signed)) return { ok: true };
  }
  return { ok: false, reason: 'bad_signature' };
}

/** The bytes of a base64 string, or null when it is not base64 (atob throws InvalidCharacterError). */
function fromBase64(text: string): Uint8Array<ArrayBuffer> | null {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return null;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
