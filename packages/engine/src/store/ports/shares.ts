import type { SharedResourceType } from '../../accounts/schemas.js';

/** A resource of another capability (session, crawl, search job, workflow), by type and id. */
export interface ShareKey {
  type: SharedResourceType;
  id: string;
}

/** A resource with its owner, as its own capability's row names it. */
export interface OwnedShareKey extends ShareKey {
  ownerUserId: string;
}

/**
 * Who besides the owner may read one resource. A record exists once the resource is shared or
 * linked to a parent; no record means private.
 */
export interface ShareRecord {
  resourceType: SharedResourceType;
  resourceId: string;
  ownerUserId: string;
  /** Anyone with the link (and the /v1/public routes) may read it. */
  publicShare: boolean;
  sharedWithOrg: boolean;
  organizationId: string | null;
  /** The resource whose org sharing this one follows (a session for its crawls and search jobs). */
  parentType: SharedResourceType | null;
  parentId: string | null;
  updatedAt: string;
}

export type ShareFields = Pick<ShareRecord, 'publicShare' | 'sharedWithOrg' | 'organizationId' | 'parentType' | 'parentId'>;

/** Resource sharing: public links, organization visibility and the parent a resource follows. */
export interface SharesPort {
  get(key: ShareKey): Promise<ShareRecord | undefined>;
  /**
   * Creates each resource's record with the given fields, or sets them on the stored one (whose
   * owner stays), in one write. `at` becomes each record's `updatedAt`.
   */
  put(resources: readonly OwnedShareKey[], fields: Partial<ShareFields>, at: string): Promise<void>;
  /** The resources linked to `parent` as its children. */
  children(parent: ShareKey): Promise<ShareKey[]>;
  /** Drops the resource's record, and the link of every child to it (they keep their own sharing), in one write. */
  forget(key: ShareKey): Promise<void>;
  /**
   * How someone who does not own the resource may read it, in one lookup: through its public link,
   * or as a member of the organization it is shared with (`userId` null: anonymous, a member of none).
   */
  access(key: ShareKey, userId: string | null): Promise<{ publicLink: boolean; orgMember: boolean }>;
  /** Ids of resources of `type` that other owners shared with an organization the user belongs to, in no particular order. */
  sharedWith(userId: string, type: SharedResourceType): Promise<string[]>;
}
