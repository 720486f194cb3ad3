import type { AccountsPort, RateLimitsPort, RateWindow, TokenRow } from '../ports/accounts.js';
import type { PgExecutor } from './executor.js';

const TOKEN_COLUMNS = `id, user_id AS "userId", name, scopes, token_hash AS "tokenHash", prefix, expires_at AS "expiresAt",
  revoked_at AS "revokedAt", last_used_at AS "lastUsedAt", created_at AS "createdAt"`;

/** API tokens and settings on PostgreSQL. */
export class PgAccounts implements AccountsPort {
  constructor(private readonly ex: PgExecutor) {}

  async insertToken(t: TokenRow): Promise<void> {
    await this.ex.query(
      `INSERT INTO api_tokens (id, user_id, name, scopes, token_hash, prefix, expires_at, revoked_at, last_used_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [t.id, t.userId, t.name, JSON.stringify(t.scopes), t.tokenHash, t.prefix, t.expiresAt, t.revokedAt, t.lastUsedAt, t.createdAt],
    );
  }

  async tokensOf(userId: string): Promise<TokenRow[]> {
    const { rows } = await this.ex.query<TokenRow>(`SELECT ${TOKEN_COLUMNS} FROM api_tokens WHERE user_id = $1 ORDER BY created_at DESC`, [userId]);
    return rows;
  }

  async token(id: string, userId: string): Promise<TokenRow | undefined> {
    const { rows } = await this.ex.query<TokenRow>(`SELECT ${TOKEN_COLUMNS} FROM api_tokens WHERE id = $1 AND user_id = $2`, [id, userId]);
    return rows[0];
  }

  async tokenByHash(tokenHash: string): Promise<TokenRow | undefined> {
    const { rows } = await this.ex.query<TokenRow>(`SELECT ${TOKEN_COLUMNS} FROM api_tokens WHERE token_hash = $1`, [tokenHash]);
    return rows[0];
  }

  async revokeToken(id: string, at: string): Promise<void> {
    await this.ex.query(`UPDATE api_tokens SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL`, [id, at]);
  }

  async touchToken(id: string, lastUsedAt: string): Promise<void> {
    await this.ex.query(`UPDATE api_tokens SET last_used_at = $2 WHERE id = $1`, [id, lastUsedAt]);
  }

  async setting(key: string): Promise<string | undefined> {
    const { rows } = await this.ex.query<{ value: string }>(`SELECT value FROM settings WHERE key = $1`, [key]);
    return rows[0]?.value;
  }

  async settingOrInit(key: string, initial: string): Promise<string> {
    await this.ex.query(`INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING`, [key, initial]);
    return (await this.setting(key))!;
  }
}

/**
 * Rate-limit counters on PostgreSQL. Several servers count one user's requests at once: the check
 * and the count run in one transaction holding an advisory lock on (user, bucket), so two servers
 * never both take a window's last request.
 */
export class PgRateLimits implements RateLimitsPort {
  constructor(private readonly ex: PgExecutor) {}

  count(userId: string, bucket: string, windows: readonly RateWindow[], forgetBefore: number): Promise<{ counted: boolean; used: number[] }> {
    return this.ex.atomically(async () => {
      await this.ex.query(`SELECT pg_advisory_xact_lock(hashtextextended('wvr:rate:' || $1 || ':' || $2, 0))`, [userId, bucket]);
      const used: number[] = [];
      for (const w of windows) {
        const { rows } = await this.ex.query<{ count: number }>(
          `SELECT count FROM rate_limit_counters WHERE user_id = $1 AND bucket = $2 AND "window" = $3 AND window_start = $4`,
          [userId, bucket, w.window, w.start],
        );
        used.push(rows[0]?.count ?? 0);
      }
      if (windows.some((w, i) => used[i]! >= w.limit)) return { counted: false, used };
      for (const w of windows) {
        await this.ex.query(
          `INSERT INTO rate_limit_counters (user_id, bucket, "window", window_start, count) VALUES ($1, $2, $3, $4, 1)
           ON CONFLICT (user_id, bucket, "window", window_start) DO UPDATE SET count = rate_limit_counters.count + 1`,
          [userId, bucket, w.window, w.start],
        );
      }
      await this.ex.query(`DELETE FROM rate_limit_counters WHERE user_id = $1 AND window_start < $2`, [userId, forgetBefore]);
      return { counted: true, used };
    });
  }
}
