import type Database from 'better-sqlite3';
import { and, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from './open.js';
import type { RateWindow, TokenRow } from '../ports/accounts.js';
import { apiTokens, rateLimitCounters, settings } from './tables/accounts.js';

/** API tokens and settings: today's drizzle statements. */
export class SqliteAccounts {
  constructor(private readonly db: Db) {}

  insertToken(row: TokenRow): void {
    this.db.insert(apiTokens).values(row).run();
  }

  tokensOf(userId: string): TokenRow[] {
    return this.db.select().from(apiTokens).where(eq(apiTokens.userId, userId)).orderBy(desc(apiTokens.createdAt)).all();
  }

  token(id: string, userId: string): TokenRow | undefined {
    return this.db.select().from(apiTokens).where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId))).get();
  }

  tokenByHash(tokenHash: string): TokenRow | undefined {
    return this.db.select().from(apiTokens).where(eq(apiTokens.tokenHash, tokenHash)).get();
  }

  revokeToken(id: string, at: string): void {
    this.db.update(apiTokens).set({ revokedAt: at }).where(and(eq(apiTokens.id, id), isNull(apiTokens.revokedAt))).run();
  }

  touchToken(id: string, lastUsedAt: string): void {
    this.db.update(apiTokens).set({ lastUsedAt }).where(eq(apiTokens.id, id)).run();
  }

  setting(key: string): string | undefined {
    return this.db.select().from(settings).where(eq(settings.key, key)).get()?.value;
  }

  settingOrInit(key: string, initial: string): string {
    this.db.insert(settings).values({ key, value: initial }).onConflictDoNothing().run();
    return this.setting(key)!;
  }
}

/** Rate-limit counters: read, check and count in one immediate transaction (one writer per file). */
export class SqliteRateLimits {
  constructor(
    private readonly sqlite: Database.Database,
    private readonly db: Db,
  ) {}

  count(userId: string, bucket: string, windows: readonly RateWindow[], forgetBefore: number): { counted: boolean; used: number[] } {
    return this.sqlite
      .transaction(() => {
        const used = windows.map(
          (w) =>
            this.db
              .select({ count: rateLimitCounters.count })
              .from(rateLimitCounters)
              .where(
                and(
                  eq(rateLimitCounters.userId, userId),
                  eq(rateLimitCounters.bucket, bucket),
                  eq(rateLimitCounters.window, w.window),
                  eq(rateLimitCounters.windowStart, w.start),
                ),
              )
              .get()?.count ?? 0,
        );
        if (windows.some((w, i) => used[i]! >= w.limit)) return { counted: false, used };
        for (const w of windows) {
          this.db
            .insert(rateLimitCounters)
            .values({ userId, bucket, window: w.window, windowStart: w.start, count: 1 })
            .onConflictDoUpdate({
              target: [rateLimitCounters.userId, rateLimitCounters.bucket, rateLimitCounters.window, rateLimitCounters.windowStart],
              set: { count: sql`${rateLimitCounters.count} + 1` },
            })
            .run();
        }
        this.db
          .delete(rateLimitCounters)
          .where(and(eq(rateLimitCounters.userId, userId), lt(rateLimitCounters.windowStart, forgetBefore)))
          .run();
        return { counted: true, used };
      })
      .immediate();
  }
}
