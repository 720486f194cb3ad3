import type { Organization, Plan, SharedResourceType, User } from '../../accounts/schemas.js';

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

/** Users, organizations, API tokens and the engine's own settings. */
export interface AccountsPort {
  insertUser(user: User): Promise<void>;
  user(id: string): Promise<User | undefined>;
  /** `email` as stored: trimmed and lower-cased. */
  userByEmail(email: string): Promise<User | undefined>;
  setPlan(userId: string, plan: Plan): Promise<void>;

  insertOrganization(org: Organization): Promise<void>;
  /** Adds the member, or changes the role of one already there. */
  putMember(member: { orgId: string; userId: string; role: 'owner' | 'member'; createdAt: string }): Promise<void>;
  organizationsOf(userId: string): Promise<Organization[]>;
  isMember(orgId: string, userId: string): Promise<boolean>;

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

/** Who besides the owner may read a resource; no record means private. */
export interface ShareRecord {
  type: SharedResourceType;
  id: string;
  ownerUserId: string;
  publicShare: boolean;
  sharedWithOrg: boolean;
  organizationId: string | null;
  /** The resource whose org sharing this one follows (a session for its crawls and search jobs). */
  parentType: SharedResourceType | null;
  parentId: string | null;
  updatedAt: string;
}

export interface ResourceKey {
  type: SharedResourceType;
  id: string;
}

export type ShareFields = Partial<Pick<ShareRecord, 'publicShare' | 'sharedWithOrg' | 'organizationId' | 'parentType' | 'parentId'>>;

/** Sharing of every capability's resources (the capabilities keep ownership in their own rows). */
export interface SharesPort {
  get(key: ResourceKey): Promise<ShareRecord | undefined>;
  /** Writes `fields` of each resource, creating its record (private but for `fields`) when it has none. */
  write(refs: readonly (ResourceKey & { ownerUserId: string })[], fields: ShareFields, updatedAt: string): Promise<void>;
  /** Resources linked to `parent` as its children. */
  children(parent: ResourceKey): Promise<ResourceKey[]>;
  /** Ids of resources of `type` that others shared with an organization `userId` belongs to. */
  sharedWithMember(userId: string, type: SharedResourceType): Promise<string[]>;
  /** Drops a resource's record and unlinks its children, in one step. */
  forget(key: ResourceKey): Promise<void>;
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
