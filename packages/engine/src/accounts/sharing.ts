import { z } from 'zod';
import type { EngineContext } from '../context.js';
import { errors } from '../core/errors.js';
import { ShareBody } from '../core/schemas.js';
import { parseInput } from '../core/validate.js';
import { AccessLevel, type Principal, type SharedResourceType, type ShareState } from './schemas.js';
import type { AccountsService } from './service.js';
import type { OwnedShareKey, ShareFields, ShareKey, ShareRecord } from '../store/ports/shares.js';

export type ShareInput = z.input<typeof ShareBody>;

/** A resource as its own capability knows it: the owner comes from that capability's row. */
export type ResourceRef = OwnedShareKey;
export type ResourceKey = ShareKey;

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
  async share(principal: Principal, ref: ResourceRef, body: unknown, options: ShareOptions = {}): Promise<ShareState> {
    if (principal.userId !== ref.ownerUserId) throw errors.notFound(ref.type, ref.id);
    const input = parseInput(ShareBody, body);
    if (input.shared_with_org === true && input.organization_id && !(await this.accounts.isMember(input.organization_id, principal.userId))) {
      throw errors.forbidden(
        'organization_membership_required',
        `You can share only with an organization you belong to; you are not a member of ${input.organization_id}.`,
        { details: { organization_id: input.organization_id }, suggestions: ['List your organizations with GET /v1/sessions?include_shared=true.'] },
      );
    }
    const orgChange =
      input.shared_with_org === undefined
        ? undefined
        : { sharedWithOrg: input.shared_with_org, organizationId: input.shared_with_org ? (input.organization_id ?? null) : null };
    // Only the fields the request names are written, so two requests changing different fields
    // keep both changes (on PostgreSQL too, where a read-then-write could lose one); the resource
    // and the resources following it change in one transaction.
    return this.ctx.store.atomically(async (tx) => {
      const at = this.ctx.clock.now().toISOString();
      await tx.shares.put([ref], { ...(input.public_share === undefined ? {} : { publicShare: input.public_share }), ...orgChange }, at);
      if (orgChange) {
        const followers = new Map<string, ResourceRef>();
        for (const child of [...(await tx.shares.children(ref)), ...(options.cascadeTo ?? [])]) {
          followers.set(`${child.type}:${child.id}`, { ...child, ownerUserId: ref.ownerUserId });
        }
        await tx.shares.put([...followers.values()], orgChange, at);
      }
      return toState(await tx.shares.get(ref));
    });
  }

  /** The stored sharing of a resource; private when never shared. */
  async state(type: SharedResourceType, id: string): Promise<ShareState> {
    return toState(await this.ctx.store.shares.get({ type, id }));
  }

  /**
   * Records that `child` belongs to `parent` (a crawl run inside a session): it takes the parent's
   * current org sharing now and follows later org sharing changes of the parent.
   */
  link(child: ResourceRef, parent: ResourceKey): Promise<void> {
    // One transaction: an org sharing change of the parent lands either before (inherited here) or after (it reaches the child).
    return this.ctx.store.atomically(async (tx) => {
      const parentRow = await tx.shares.get(parent);
      const inherit = parentRow && parentRow.ownerUserId === child.ownerUserId && parentRow.sharedWithOrg;
      const fields: Partial<ShareFields> = {
        parentType: parent.type,
        parentId: parent.id,
        ...(inherit ? { sharedWithOrg: true, organizationId: parentRow.organizationId } : {}),
      };
      await tx.shares.put([child], fields, this.ctx.clock.now().toISOString());
    });
  }

  /** The most a principal (null: anonymous) may do with a resource; null when it may not read it. */
  async accessLevel(principal: Principal | null, ref: ResourceRef): Promise<AccessLevel | null> {
    if (principal && principal.userId === ref.ownerUserId) return 'owner';
    const access = await this.ctx.store.shares.access(ref, principal?.userId ?? null);
    if (access.orgMember) return 'org_viewer';
    return access.publicLink ? 'public' : null;
  }

  /** Like accessLevel, but a resource the principal may not read is reported as missing (404), never as forbidden. */
  async assertCanRead(principal: Principal | null, ref: ResourceRef): Promise<AccessLevel> {
    const level = await this.accessLevel(principal, ref);
    if (!level) throw errors.notFound(ref.type, ref.id);
    return level;
  }

  /**
   * Changing or running a resource is its owner's: an org member it is shared with is told it is
   * read-only (403 `<type>_read_only`), anyone else that it does not exist (404). The same rule for
   * every shared resource.
   */
  async assertOwner(principal: Principal, ref: ResourceRef): Promise<void> {
    if (principal.userId === ref.ownerUserId) return;
    if ((await this.accessLevel(principal, ref)) === 'org_viewer') {
      throw errors.forbidden(`${ref.type}_read_only`, `The ${ref.type} ${ref.id} is shared with you to read; only its owner can change or run it.`, {
        details: { [`${ref.type}_id`]: ref.id },
      });
    }
    throw errors.notFound(ref.type, ref.id);
  }

  /** For the /v1/public routes: the resource must be publicly shared, else it does not exist. */
  async assertPublic(ref: ResourceRef): Promise<void> {
    if (!(await this.state(ref.type, ref.id)).public_share) throw errors.notFound(ref.type, ref.id);
  }

  /**
   * Ids of resources of `type` that other users shared with an organization the principal belongs
   * to: a capability passes them into its own list query (owned OR one of these), so filtering and
   * paging stay in the store.
   */
  sharedWithMe(principal: Principal, type: SharedResourceType): Promise<string[]> {
    return this.ctx.store.shares.sharedWith(principal.userId, type);
  }

  /** Drops the sharing of a deleted resource; its children keep their own sharing but follow it no more. */
  forget(type: SharedResourceType, id: string): Promise<void> {
    return this.ctx.store.shares.forget({ type, id });
  }
}

function toState(row: ShareRecord | undefined): ShareState {
  if (!row) return { ...PRIVATE };
  return { public_share: row.publicShare, shared_with_org: row.sharedWithOrg, organization_id: row.organizationId };
}
