import type { CreditsSummary, LedgerEntry, TokenCreated, TokenList, TokenRecord } from '@wvr/engine';

export interface TokenCreateOptions {
  plan?: 'free' | 'developer' | 'pro';
  name: string;
  scopes?: string[];
  expires_in_days?: number;
}

/**
 * What every command talks to: the engine in-process (the default) or a wvr server through
 * the SDK. Commands never reach past this interface.
 */
export interface Backend {
  readonly kind: 'local' | 'remote';
  createToken(options: TokenCreateOptions): Promise<TokenCreated>;
  listTokens(): Promise<TokenList>;
  revokeToken(id: string): Promise<TokenRecord>;
  credits(): Promise<CreditsSummary>;
  grantCredits(email: string, amount: number): Promise<LedgerEntry>;
  close(): Promise<void>;
}
