import type Database from 'better-sqlite3';
import { and, desc, eq, inArray, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Db } from './open.js';
import type { Organization, Plan, SharedResourceType, User } from '../../accounts/schemas.js';
import type { ResourceKey, ShareFields, ShareRecord, RateWindow, TokenRow } from '../ports/accounts.js';
import { apiTokens, memberships, organizations, rateLimitCounters, resourceShares, settings, users } from './tables/accounts.js';

/** Users, organizations, tokens and settings: today's drizzle statements. */
export class SqliteAccounts {
  constructor(private readonly db: Db) {}

  insertUser(user: User): void {
    this.db.insert(users).values(user).run();
  }

  user(id: string): User | undefined {
    return this.db.select().from(users).where(eq(users.id, id)).get();
  }

  userByEmail(email: string): User | undefined {
    return this.db.select().from(users).where(eq(users.email, email)).get();
  }

  setPlan(userId: string, plan: Plan): void {
    this.db.update(users).set({ plan }).where(eq(users.id, userId)).run();
  }

  insertOrganization(org: Organization): void {
    this.db.insert(organizations).values(org).run();
  }

  putMember(m: { orgId: string; userId: string; role: 'owner' | 'member'; createdAt: string }): void {
    this.db
      .insert(memberships)
      .values(m)
      .onConflictDoUpdate({ target: [memberships.orgId, memberships.userId], set: { role: m.role } })
      .run();
  }

  organizationsOf(userId: string): Organization[] {
    return this.db
      .select({ id: organizations.id, name: organizations.name, createdAt: organizations.createdAt })
      .from(memberships)
      .innerJoin(organizations, eq(memberships.orgId, organizations.id))
      .where(eq(memberships.userId, userId))
      .all();
  }

  isMember(orgId: string, userId: string): boolean {
    return (
      this.db
        .select({ userId: memberships.userId })
        .from(memberships)
        .where(and(eq(memberships.orgId, orgId), eq(memberships.userId, userId)))
        .get() !== undefined
    );
  }

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

/** Resource sharing: one row per shared or linked resource. */
export class SqliteShares {
  constructor(
    private readonly sqlite: Database.Database,
    private readonly db: Db,
  ) {}

  get(key: ResourceKey): ShareRecord | undefined {
    const row = this.db.select().from(resourceShares).where(this.is(key)).get();
    return row && { type: row.resourceType, id: row.resourceId, ...pickShare(row) };
  }

  write(refs: readonly (ResourceKey & { ownerUserId: string })[], fields: ShareFields, updatedAt: string): void {
    this.sqlite
      .transaction(() => {
        for (const ref of refs) {
          this.db
            .insert(resourceShares)
            .values({ resourceType: ref.type, resourceId: ref.id, ownerUserId: ref.ownerUserId, updatedAt, ...fields })
            .onConflictDoUpdate({ target: [resourceShares.resourceType, resourceShares.resourceId], set: { ...fields, updatedAt } })
            .run();
        }
      })
      .immediate();
  }

  children(parent: ResourceKey): ResourceKey[] {
    return this.db
      .select({ type: resourceShares.resourceType, id: resourceShares.resourceId })
      .from(resourceShares)
      .where(and(eq(resourceShares.parentType, parent.type), eq(resourceShares.parentId, parent.id)))
      .all();
  }

  sharedWithMember(userId: string, type: SharedResourceType): string[] {
    const myOrgs = this.db.select({ orgId: memberships.orgId }).from(memberships).where(eq(memberships.userId, userId));
    return this.db
      .select({ id: resourceShares.resourceId })
      .from(resourceShares)
      .where(
        and(
          eq(resourceShares.resourceType, type),
          eq(resourceShares.sharedWithOrg, true),
          ne(resourceShares.ownerUserId, userId),
          inArray(resourceShares.organizationId, myOrgs),
        ),
      )
      .all()
      .map((r) => r.id);
  }

  forget(key: ResourceKey): void {
    this.sqlite
      .transaction(() => {
        this.db.delete(resourceShares).where(this.is(key)).run();
        this.db
          .update(resourceShares)
          .set({ parentType: null, parentId: null })
          .where(and(eq(resourceShares.parentType, key.type), eq(resourceShares.parentId, key.id)))
          .run();
      })
      .immediate();
  }

  private is(key: ResourceKey) {
    return and(eq(resourceShares.resourceType, key.type), eq(resourceShares.resourceId, key.id));
  }
}

const pickShare = ({ ownerUserId, publicShare, sharedWithOrg, organizationId, parentType, parentId, updatedAt }: typeof resourceShares.$inferSelect) => ({
  ownerUserId,
  publicShare,
  sharedWithOrg,
  organizationId,
  parentType,
  parentId,
  updatedAt,
});

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
