import { and, eq } from 'drizzle-orm';
import type { EngineContext } from '../context.js';
import { errors } from '../core/errors.js';
import { memberships, organizations, users } from '../store/sqlite/tables/accounts.js';
import { ALL_SCOPES, type Organization, type Plan, type Principal, type Profile, type User } from './schemas.js';
import { PLAN_RATE_LIMITS } from './rate-limits.js';

export class AccountsService {
  constructor(private readonly ctx: EngineContext) {}

  /** Creates the user on first sight; a given plan replaces the stored one. */
  ensureUser(input: { email: string; name?: string; plan?: Plan }): User {
    const email = input.email.trim().toLowerCase();
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) {
      throw errors.validation('email_invalid_format', `"${input.email}" is not an email address.`);
    }
    const existing = this.getUserByEmail(email);
    if (existing) {
      if (input.plan && input.plan !== existing.plan) this.setPlan(existing.id, input.plan);
      return this.getUser(existing.id);
    }
    const user: User = {
      id: this.ctx.random.uuid(),
      email,
      name: input.name ?? null,
      plan: input.plan ?? 'free',
      createdAt: this.ctx.clock.now().toISOString(),
    };
    this.ctx.db.insert(users).values(user).run();
    return user;
  }

  getUser(id: string): User {
    const row = this.ctx.db.select().from(users).where(eq(users.id, id)).get();
    if (!row) throw errors.notFound('user', id);
    return row;
  }

  getUserByEmail(email: string): User | undefined {
    return this.ctx.db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).get();
  }

  setPlan(userId: string, plan: Plan): void {
    this.ctx.db.update(users).set({ plan }).where(eq(users.id, userId)).run();
  }

  /** The engine's owner acting directly (CLI, embedders): every scope, no token. */
  localPrincipal(user: User): Principal {
    return { userId: user.id, email: user.email, plan: user.plan, tokenId: 'local', scopes: [...ALL_SCOPES] };
  }

  createOrganization(input: { name: string; ownerUserId: string }): Organization {
    const org: Organization = { id: this.ctx.random.uuid(), name: input.name, createdAt: this.ctx.clock.now().toISOString() };
    this.ctx.sqlite.transaction(() => {
      this.ctx.db.insert(organizations).values(org).run();
      this.addMember(org.id, input.ownerUserId, 'owner');
    }).immediate();
    return org;
  }

  addMember(orgId: string, userId: string, role: 'owner' | 'member' = 'member'): void {
    this.ctx.db
      .insert(memberships)
      .values({ orgId, userId, role, createdAt: this.ctx.clock.now().toISOString() })
      .onConflictDoUpdate({ target: [memberships.orgId, memberships.userId], set: { role } })
      .run();
  }

  /** Who the caller is: the account, its organizations, its plan's limits and the calling token's scopes. */
  profile(principal: Principal): Profile {
    const user = this.getUser(principal.userId);
    return {
      id: user.id,
      email: user.email,
      name: user.name,
      plan: user.plan,
      created_at: user.createdAt,
      organizations: this.organizationsOf(user.id).map((o) => ({ id: o.id, name: o.name })),
      token: { id: principal.tokenId, scopes: principal.scopes },
      rate_limits: { per_hour: PLAN_RATE_LIMITS[user.plan].hour, per_day: PLAN_RATE_LIMITS[user.plan].day },
    };
  }

  organizationsOf(userId: string): Organization[] {
    return this.ctx.db
      .select({ id: organizations.id, name: organizations.name, createdAt: organizations.createdAt })
      .from(memberships)
      .innerJoin(organizations, eq(memberships.orgId, organizations.id))
      .where(eq(memberships.userId, userId))
      .all();
  }

  isMember(orgId: string, userId: string): boolean {
    return (
      this.ctx.db
        .select({ userId: memberships.userId })
        .from(memberships)
        .where(and(eq(memberships.orgId, orgId), eq(memberships.userId, userId)))
        .get() !== undefined
    );
  }
}
