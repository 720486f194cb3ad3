/** An API token as stored: only its hash, never the token itself. Times are ISO strings. */
export interface TokenRow {
  id: string;
  userId: string;
  name: string;
  scopes: string[];
  tokenHash: string;
  prefix: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
  createdAt: string;
}

/** API tokens and the engine's own settings. Users and organizations are `UsersPort`'s, sharing `SharesPort`'s. */
export interface AccountsPort {
  insertToken(row: TokenRow): Promise<void>;
  /** The user's tokens, newest first. */
  tokensOf(userId: string): Promise<TokenRow[]>;
  /** One of the user's tokens; undefined when it is another user's. */
  token(id: string, userId: string): Promise<TokenRow | undefined>;
  tokenByHash(tokenHash: string): Promise<TokenRow | undefined>;
  /** Sets revoked-at unless the token was already revoked (its first revocation stands). */
  revokeToken(id: string, at: string): Promise<void>;
  touchToken(id: string, lastUsedAt: string): Promise<void>;

  setting(key: string): Promise<string | undefined>;
  /**
   * The setting's stored value; when none is stored yet, stores `initial` first. Two processes
   * racing on a first start both get the value that won.
   */
  settingOrInit(key: string, initial: string): Promise<string>;
}

export interface RateWindow {
  window: 'hour' | 'day';
  /** Engine-clock ms at which this window began. */
  start: number;
  limit: number;
}

/**
 * Fixed-window request counters. `count` is one atomic step, so two processes on one database
 * never both take the last request of a window.
 */
export interface RateLimitsPort {
  /**
   * Counts one request in every window unless one of them is already at its limit (then nothing is
   * counted); `used` is each window's count before this request. Counters of windows that began
   * before `forgetBefore` are dropped on the way.
   */
  count(userId: string, bucket: string, windows: readonly RateWindow[], forgetBefore: number): Promise<{ counted: boolean; used: number[] }>;
}
