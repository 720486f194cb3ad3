import { pgTable, text, integer, boolean, uniqueIndex, index, primaryKey } from 'drizzle-orm/pg-core';
import { epochMs, json } from './types.js';

// Mirrors store/sqlite accounts tables (parity.test.ts checks tables and columns match).
export const users = pgTable('users', {
  id: text('id').primaryKey(),
  email: text('email').notNull().unique(),
  name: text('name'),
  plan: text('plan', { enum: ['free', 'developer', 'pro', 'local'] }).notNull().default('free'),
  createdAt: text('created_at').notNull(),
});

export const organizations = pgTable('organizations', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: text('created_at').notNull(),
});

export const memberships = pgTable(
  'memberships',
  {
    orgId: text('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['owner', 'member'] }).notNull().default('member'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.userId] })],
);

export const apiTokens = pgTable(
  'api_tokens',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    scopes: json<string[]>('scopes').notNull(),
    tokenHash: text('token_hash').notNull(),
    prefix: text('prefix').notNull(),
    expiresAt: text('expires_at'),
    revokedAt: text('revoked_at'),
    lastUsedAt: text('last_used_at'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [uniqueIndex('api_tokens_hash').on(t.tokenHash), index('api_tokens_user').on(t.userId)],
);

export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/** Shared by every server on the database, so a rate limit holds across processes. */
export const rateLimitCounters = pgTable(
  'rate_limit_counters',
  {
    userId: text('user_id').notNull(),
    bucket: text('bucket').notNull(),
    window: text('window', { enum: ['hour', 'day'] }).notNull(),
    windowStart: epochMs('window_start').notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.bucket, t.window, t.windowStart] })],
);

export const resourceShares = pgTable(
  'resource_shares',
  {
    resourceType: text('resource_type', { enum: ['session', 'crawl', 'search_job', 'workflow'] }).notNull(),
    resourceId: text('resource_id').notNull(),
    ownerUserId: text('owner_user_id').notNull(),
    publicShare: boolean('public_share').notNull().default(false),
    sharedWithOrg: boolean('shared_with_org').notNull().default(false),
    organizationId: text('organization_id'),
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
