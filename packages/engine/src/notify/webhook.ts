import type { Agent } from 'undici';
import { undici } from '../core/undici.js';
import { AddressPolicy, SSRF_ERROR_CODE } from '../web/address-policy.js';
import type { SignedHeaders } from './signing.js';

export interface SendResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}

const TIMEOUT_MS = 15_000;

/**
 * POSTs signed webhook bodies. Redirects are not followed (a 3xx is a failed attempt), so a
 * receiver cannot bounce a delivery onto an internal address.
 */
export class WebhookSender {
  private readonly policy: AddressPolicy;
  /** Made on the first delivery (see core/undici.ts). */
  private agent: Agent | undefined;

  constructor(
    allowPrivateNetwork: boolean,
    private readonly userAgent: string,
  ) {
    // The fetcher's SSRF rule, checked on the socket's own DNS answer.
    this.policy = new AddressPolicy(allowPrivateNetwork);
  }

  /** A reason to refuse the URL before any attempt, or null. */
  refusal(url: string): string | null {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `unsupported scheme ${parsed.protocol}`;
    return this.policy.refuseLiteral(parsed.hostname);
  }

  async send(url: string, headers: SignedHeaders, body: string): Promise<SendResult> {
    const refused = this.refusal(url);
    if (refused) return { ok: false, statusCode: null, error: `ssrf_blocked: ${refused}` };
    try {
      this.agent ??= new (undici().Agent)({
        headersTimeout: TIMEOUT_MS,
        bodyTimeout: TIMEOUT_MS,
        connect: { timeout: TIMEOUT_MS, lookup: this.policy.lookup },
      });
      const res = await undici().request(url, {
        method: 'POST',
        dispatcher: this.agent,
        headers: { ...headers, 'content-type': 'application/json', 'user-agent': this.userAgent },
        body,
      });
      await res.body.dump();
      const ok = res.statusCode >= 200 && res.statusCode < 300;
      return { ok, statusCode: res.statusCode, error: ok ? null : `receiver answered ${res.statusCode}` };
    } catch (error) {
      return { ok: false, statusCode: null, error: describe(error) };
    }
  }

  async close(): Promise<void> {
    await this.agent?.close();
  }
}

function describe(error: unknown): string {
  const err = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = err.cause?.code ?? err.code;
  if (code === SSRF_ERROR_CODE) return `ssrf_blocked: ${err.cause?.message ?? err.message}`;
  return [code, err.cause?.message ?? err.message].filter(Boolean).join(': ');
}
