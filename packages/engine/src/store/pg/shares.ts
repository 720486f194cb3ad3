import { and, eq, ne, sql } from 'drizzle-orm';
import type { SharedResourceType } from '../../accounts/schemas.js';
import type { OwnedShareKey, ShareFields, ShareKey, ShareRecord, SharesPort } from '../ports/shares.js';
import type { PgExecutor } from './executor.js';
import { memberships, resourceShares } from './tables/accounts.js';

/** Resource sharing on PostgreSQL. */
export class PgShares implements SharesPort {
  constructor(private readonly ex: PgExecutor) {}

  private get db() {
    return this.ex.db;
  }

  async get(key: ShareKey): Promise<ShareRecord | undefined> {
    const [row] = await this.db.select().from(resourceShares).where(is(key));
    return row;
  }

  async put(resources: readonly OwnedShareKey[], fields: Partial<ShareFields>, at: string): Promise<void> {
    if (resources.length === 0) return;
    await this.db
      .insert(resourceShares)
      .values(resources.map((r) => ({ resourceType: r.type, resourceId: r.id, ownerUserId: r.ownerUserId, updatedAt: at, ...fields })))
      .onConflictDoUpdate({ target: [resourceShares.resourceType, resourceShares.resourceId], set: { ...fields, updatedAt: at } });
  }

  children(parent: ShareKey): Promise<ShareKey[]> {
    return this.db
      .select({ type: resourceShares.resourceType, id: resourceShares.resourceId })
      .from(resourceShares)
      .where(and(eq(resourceShares.parentType, parent.type), eq(resourceShares.parentId, parent.id)));
  }

  forget(key: ShareKey): Promise<void> {
    return this.ex.atomically(async () => {
      await this.db.delete(resourceShares).where(is(key));
      await this.db
        .update(resourceShares)
        .set({ parentType: null, parentId: null })
        .where(and(eq(resourceShares.parentType, key.type), eq(resourceShares.parentId, key.id)));
    });
  }

  async access(key: ShareKey, userId: string | null): Promise<{ publicLink: boolean; orgMember: boolean }> {
    const [row] = await this.db
      .select({ publicLink: resourceShares.publicShare, orgMember: userId === null ? sql<boolean>`false` : sharedWithOrgsOf(userId) })
      .from(resourceShares)
      .where(is(key));
    // The membership test reads null when the record names no organization.
    return { publicLink: row?.publicLink ?? false, orgMember: row?.orgMember === true };
  }

  async sharedWith(userId: string, type: SharedResourceType): Promise<string[]> {
    const rows = await this.db
      .select({ id: resourceShares.resourceId })
      .from(resourceShares)
      .where(and(eq(resourceShares.resourceType, type), ne(resourceShares.ownerUserId, userId), sharedWithOrgsOf(userId)));
    return rows.map((r) => r.id);
  }
}

function is(key: ShareKey) {
  return and(eq(resourceShares.resourceType, key.type), eq(resourceShares.resourceId, key.id));
}

/** The record is shared with an organization the user belongs to. */
function sharedWithOrgsOf(userId: string) {
  return sql`(${resourceShares.sharedWithOrg} and ${resourceShares.organizationId} in (select ${memberships.orgId} from ${memberships} where ${memberships.userId} = ${userId}))`;
}
