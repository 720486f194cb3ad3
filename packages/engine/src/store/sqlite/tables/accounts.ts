import { sqliteTable, text, integer, uniqueIndex, index, primaryKey } from 'drizzle-orm/sqlite-core';

export const users = sqliteTable('users', {
  id: text('id').primaryKey(),
  email: text('email').notNull().unique(),
  name: text('name'),
  plan: text('plan', { enum: ['free', 'developer', 'pro', 'local'] }).notNull().default('free'),
  createdAt: text('created_at').notNull(),
});

export const organizations = sqliteTable('organizations', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: text('created_at').notNull(),
});

export const memberships = sqliteTable(
  'memberships',
  {
    orgId: text('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['owner', 'member'] }).notNull().default('member'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.userId] })],
);

export const apiTokens = sqliteTable(
  'api_tokens',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    scopes: text('scopes', { mode: 'json' }).$type<string[]>().notNull(),
    tokenHash: text('token_hash').notNull(),
    /** The first characters of the token, so a person can tell tokens apart in a list. */
    prefix: text('prefix').notNull(),
    expiresAt: text('expires_at'),
    revokedAt: text('revoked_at'),
    lastUsedAt: text('last_used_at'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [uniqueIndex('api_tokens_hash').on(t.tokenHash), index('api_tokens_user').on(t.userId)],
);

export const settings = sqliteTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

export const rateLimitCounters = sqliteTable(
  'rate_limit_counters',
  {
    userId: text('user_id').notNull(),
    bucket: text('bucket').notNull(),
    window: text('window', { enum: ['hour', 'day'] }).notNull(),
    windowStart: integer('window_start').notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.bucket, t.window, t.windowStart] })],
);

/**
 * Who besides the owner may read a resource of another capability (session, crawl, search job,
 * workflow). A row exists once a resource is shared or linked to a parent; no row means private.
 */
export const resourceShares = sqliteTable(
  'resource_shares',
  {
    resourceType: text('resource_type', { enum: ['session', 'crawl', 'search_job', 'workflow'] }).notNull(),
    resourceId: text('resource_id').notNull(),
    ownerUserId: text('owner_user_id').notNull(),
    publicShare: integer('public_share', { mode: 'boolean' }).notNull().default(false),
    sharedWithOrg: integer('shared_with_org', { mode: 'boolean' }).notNull().default(false),
    organizationId: text('organization_id'),
    /** The resource whose org sharing this one follows (a session for its crawls and search jobs). */
    parentType: text('parent_type', { enum: ['session', 'crawl', 'search_job', 'workflow'] }),
    parentId: text('parent_id'),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.resourceType, t.resourceId] }),
    index('resource_shares_org').on(t.organizationId, t.resourceType),
    index('resource_shares_parent').on(t.parentType, t.parentId),
  ],
);
