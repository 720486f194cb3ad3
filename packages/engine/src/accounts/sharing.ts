import { and, eq, inArray, ne } from 'drizzle-orm';
import { z } from 'zod';
import type { EngineContext } from '../context.js';
import { errors } from '../core/errors.js';
import { ShareBody } from '../core/schemas.js';
import { parseInput } from '../core/validate.js';
import { AccessLevel, type Principal, type SharedResourceType, type ShareState } from './schemas.js';
import type { AccountsService } from './service.js';
import { memberships, resourceShares } from '../store/sqlite/tables/accounts.js';

export type ShareInput = z.input<typeof ShareBody>;

/** A resource as its own capability knows it: the owner comes from that capability's row. */
export interface ResourceRef {
  type: SharedResourceType;
  id: string;
  ownerUserId: string;
}

export interface ResourceKey {
  type: SharedResourceType;
  id: string;
}

export interface ShareOptions {
  /** Resources that take the same org sharing (a session's crawls and search jobs), owned by the same user. */
  cascadeTo?: ResourceKey[];
}

const PRIVATE: ShareState = { public_share: false, shared_with_org: false, organization_id: null };

/**
 * What a public reader sees of a resource: the same safe subset for every capability, as public
 * sessions show it. Where the owner is told (webhook, notifications), which session or organization
 * it belongs to, are the owner's; a public reader gets the content and its shape only.
 */
export const PUBLIC_SHARE_STATE: ShareState = { public_share: true, shared_with_org: false, organization_id: null };
const OWNER_ONLY_FIELDS = new Set(['webhook_url', 'session_id', 'notification_config', 'organization_id']);

/** A stored request or configuration without the owner-only fields, for a public reader. */
export function withoutOwnerFields<T extends Record<string, unknown>>(config: T): T {
  return Object.fromEntries(Object.entries(config).filter(([key]) => !OWNER_ONLY_FIELDS.has(key))) as T;
}

/**
 * Sharing for every capability's resources: public links, org visibility, access_level.
 * Capabilities keep ownership in their own rows and ask here who else may read.
 */
export class SharingService {
  constructor(
    private readonly ctx: EngineContext,
    private readonly accounts: AccountsService,
  ) {}

  /**
   * Applies a share request made by the owner. Org sharing also reaches `cascadeTo` and every
   * resource linked to this one as its child; public sharing never cascades.
   */
  share(principal: Principal, ref: ResourceRef, body: unknown, options: ShareOptions = {}): ShareState {
    if (principal.userId !== ref.ownerUserId) throw errors.notFound(ref.type, ref.id);
    const input = parseInput(ShareBody, body);
    if (input.shared_with_org === true && input.organization_id && !this.accounts.isMember(input.organization_id, principal.userId)) {
      throw errors.forbidden(
        'organization_membership_required',
        `You can share only with an organization you belong to; you are not a member of ${input.organization_id}.`,
        { details: { organization_id: input.organization_id }, suggestions: ['List your organizations with GET /v1/sessions?include_shared=true.'] },
      );
    }
    const current = this.state(ref.type, ref.id);
    const orgChange =
      input.shared_with_org === undefined
        ? undefined
        : { sharedWithOrg: input.shared_with_org, organizationId: input.shared_with_org ? (input.organization_id ?? null) : null };
    const next: ShareState = {
      public_share: input.public_share ?? current.public_share,
      shared_with_org: orgChange ? orgChange.sharedWithOrg : current.shared_with_org,
      organization_id: orgChange ? orgChange.organizationId : current.organization_id,
    };
    this.ctx.sqlite.transaction(() => {
      this.write(ref, { publicShare: next.public_share, sharedWithOrg: next.shared_with_org, organizationId: next.organization_id });
      if (!orgChange) return;
      const children = this.childrenOf(ref);
      for (const child of [...children, ...(options.cascadeTo ?? [])]) {
        this.write({ ...child, ownerUserId: ref.ownerUserId }, orgChange);
      }
    }).immediate();
    return next;
  }

  /** The stored sharing of a resource; private when never shared. */
  state(type: SharedResourceType, id: string): ShareState {
    const row = this.row(type, id);
    if (!row) return { ...PRIVATE };
    return { public_share: row.publicShare, shared_with_org: row.sharedWithOrg, organization_id: row.organizationId };
  }

  /**
   * Records that `child` belongs to `parent` (a crawl run inside a session): it takes the parent's
   * current org sharing now and follows later org sharing changes of the parent.
   */
  link(child: ResourceRef, parent: ResourceKey): void {
    const parentRow = this.row(parent.type, parent.id);
    const inherit = parentRow && parentRow.ownerUserId === child.ownerUserId && parentRow.sharedWithOrg;
    this.write(child, {
      parentType: parent.type,
      parentId: parent.id,
      ...(inherit ? { sharedWithOrg: true, organizationId: parentRow.organizationId } : {}),
    });
  }

  /** The most a principal (null: anonymous) may do with a resource; null when it may not read it. */
  accessLevel(principal: Principal | null, ref: ResourceRef): AccessLevel | null {
    if (principal && principal.userId === ref.ownerUserId) return 'owner';
    const row = this.row(ref.type, ref.id);
    if (!row) return null;
    if (principal && row.sharedWithOrg && row.organizationId && this.accounts.isMember(row.organizationId, principal.userId)) {
      return 'org_viewer';
    }
    return row.publicShare ? 'public' : null;
  }

  /** Like accessLevel, but a resource the principal may not read is reported as missing (404), never as forbidden. */
  assertCanRead(principal: Principal | null, ref: ResourceRef): AccessLevel {
    const level = this.accessLevel(principal, ref);
    if (!level) throw errors.notFound(ref.type, ref.id);
    return level;
  }

  /**
   * Changing or running a resource is its owner's: an org member it is shared with is told it is
   * read-only (403 `<type>_read_only`), anyone else that it does not exist (404). The same rule for
   * every shared resource.
   */
  assertOwner(principal: Principal, ref: ResourceRef): void {
    if (principal.userId === ref.ownerUserId) return;
    if (this.accessLevel(principal, ref) === 'org_viewer') {
      throw errors.forbidden(`${ref.type}_read_only`, `The ${ref.type} ${ref.id} is shared with you to read; only its owner can change or run it.`, {
        details: { [`${ref.type}_id`]: ref.id },
      });
    }
    throw errors.notFound(ref.type, ref.id);
  }

  /** For the /v1/public routes: the resource must be publicly shared, else it does not exist. */
  assertPublic(ref: ResourceRef): void {
    if (!this.state(ref.type, ref.id).public_share) throw errors.notFound(ref.type, ref.id);
  }

  /** Ids of resources of `type` that other users shared with an organization the principal belongs to. */
  sharedWithMe(principal: Principal, type: SharedResourceType): string[] {
    return this.sharedWithMeQuery(principal, type)
      .all()
      .map((r) => r.id);
  }

  /**
   * The same ids as a drizzle subquery, for `inArray(table.id, ...)` inside a capability's own
   * list or search query, so filtering and paging stay in SQL.
   */
  sharedWithMeQuery(principal: Principal, type: SharedResourceType) {
    const myOrgs = this.ctx.db.select({ orgId: memberships.orgId }).from(memberships).where(eq(memberships.userId, principal.userId));
    return this.ctx.db
      .select({ id: resourceShares.resourceId })
      .from(resourceShares)
      .where(
        and(
          eq(resourceShares.resourceType, type),
          eq(resourceShares.sharedWithOrg, true),
          ne(resourceShares.ownerUserId, principal.userId),
          inArray(resourceShares.organizationId, myOrgs),
        ),
      );
  }

  /** Drops the sharing of a deleted resource; its children keep their own sharing but follow it no more. */
  forget(type: SharedResourceType, id: string): void {
    this.ctx.sqlite.transaction(() => {
      this.ctx.db
        .delete(resourceShares)
        .where(and(eq(resourceShares.resourceType, type), eq(resourceShares.resourceId, id)))
        .run();
      this.ctx.db
        .update(resourceShares)
        .set({ parentType: null, parentId: null })
        .where(and(eq(resourceShares.parentType, type), eq(resourceShares.parentId, id)))
        .run();
    }).immediate();
  }

  private childrenOf(parent: ResourceKey): ResourceKey[] {
    return this.ctx.db
      .select({ type: resourceShares.resourceType, id: resourceShares.resourceId })
      .from(resourceShares)
      .where(and(eq(resourceShares.parentType, parent.type), eq(resourceShares.parentId, parent.id)))
      .all();
  }

  private row(type: SharedResourceType, id: string) {
    return this.ctx.db
      .select()
      .from(resourceShares)
      .where(and(eq(resourceShares.resourceType, type), eq(resourceShares.resourceId, id)))
      .get();
  }

  private write(ref: ResourceRef, set: Partial<Omit<typeof resourceShares.$inferInsert, 'resourceType' | 'resourceId' | 'ownerUserId'>>): void {
    const updatedAt = this.ctx.clock.now().toISOString();
    this.ctx.db
      .insert(resourceShares)
      .values({ resourceType: ref.type, resourceId: ref.id, ownerUserId: ref.ownerUserId, updatedAt, ...set })
      .onConflictDoUpdate({ target: [resourceShares.resourceType, resourceShares.resourceId], set: { ...set, updatedAt } })
      .run();
  }
}
