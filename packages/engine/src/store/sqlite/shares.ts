import type Database from 'better-sqlite3';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Db } from './open.js';
import type { SharedResourceType } from '../../accounts/schemas.js';
import type { OwnedShareKey, ShareFields, ShareKey, ShareRecord } from '../ports/shares.js';
import { memberships, resourceShares } from './tables/accounts.js';

/** Resource sharing: today's drizzle statements. */
export class SqliteShares {
  constructor(
    private readonly sqlite: Database.Database,
    private readonly db: Db,
  ) {}

  get(key: ShareKey): ShareRecord | undefined {
    return this.db.select().from(resourceShares).where(is(key)).get();
  }

  put(resources: readonly OwnedShareKey[], fields: Partial<ShareFields>, at: string): void {
    if (resources.length === 0) return;
    this.db
      .insert(resourceShares)
      .values(resources.map((r) => ({ resourceType: r.type, resourceId: r.id, ownerUserId: r.ownerUserId, updatedAt: at, ...fields })))
      .onConflictDoUpdate({ target: [resourceShares.resourceType, resourceShares.resourceId], set: { ...fields, updatedAt: at } })
      .run();
  }

  children(parent: ShareKey): ShareKey[] {
    return this.db
      .select({ type: resourceShares.resourceType, id: resourceShares.resourceId })
      .from(resourceShares)
      .where(and(eq(resourceShares.parentType, parent.type), eq(resourceShares.parentId, parent.id)))
      .all();
  }

  forget(key: ShareKey): void {
    this.sqlite
      .transaction(() => {
        this.db.delete(resourceShares).where(is(key)).run();
        this.db
          .update(resourceShares)
          .set({ parentType: null, parentId: null })
          .where(and(eq(resourceShares.parentType, key.type), eq(resourceShares.parentId, key.id)))
          .run();
      })
      .immediate();
  }

  access(key: ShareKey, userId: string | null): { publicLink: boolean; orgMember: boolean } {
    const row = this.db
      .select({ publicLink: resourceShares.publicShare, orgMember: userId === null ? sql`0` : sharedWithOrgsOf(userId) })
      .from(resourceShares)
      .where(is(key))
      .get();
    // The membership test reads 1, 0 or null (no organization): a number, not a boolean.
    return { publicLink: row?.publicLink ?? false, orgMember: Boolean(row?.orgMember) };
  }

  sharedWith(userId: string, type: SharedResourceType): string[] {
    return this.db
      .select({ id: resourceShares.resourceId })
      .from(resourceShares)
      .where(and(eq(resourceShares.resourceType, type), ne(resourceShares.ownerUserId, userId), sharedWithOrgsOf(userId)))
      .all()
      .map((r) => r.id);
  }
}

function is(key: ShareKey) {
  return and(eq(resourceShares.resourceType, key.type), eq(resourceShares.resourceId, key.id));
}

/** The record is shared with an organization the user belongs to. */
function sharedWithOrgsOf(userId: string) {
  return sql`(${resourceShares.sharedWithOrg} and ${resourceShares.organizationId} in (select ${memberships.orgId} from ${memberships} where ${memberships.userId} = ${userId}))`;
}
