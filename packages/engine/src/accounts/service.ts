import type { EngineContext } from '../context.js';
import { errors } from '../core/errors.js';
import { ALL_SCOPES, type Organization, type Plan, type Principal, type Profile, type User } from './schemas.js';
import { PLAN_RATE_LIMITS } from './rate-limits.js';

export class AccountsService {
  constructor(private readonly ctx: EngineContext) {}

  /** Creates the user on first sight; a given plan replaces the stored one. */
  async ensureUser(input: { email: string; name?: string; plan?: Plan }): Promise<User> {
    const email = input.email.trim().toLowerCase();
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) {
      throw errors.validation('email_invalid_format', `"${input.email}" is not an email address.`);
    }
    // Looked up first so a known user costs no id; `ensure` settles a race between two first sights.
    const user =
      (await this.ctx.store.users.byEmail(email)) ??
      (await this.ctx.store.users.ensure({
        id: this.ctx.random.uuid(),
        email,
        name: input.name ?? null,
        plan: input.plan ?? 'free',
        createdAt: this.ctx.clock.now().toISOString(),
      }));
    if (!input.plan || input.plan === user.plan) return user;
    await this.setPlan(user.id, input.plan);
    return { ...user, plan: input.plan };
  }

  async getUser(id: string): Promise<User> {
    const user = await this.ctx.store.users.get(id);
    if (!user) throw errors.notFound('user', id);
    return user;
  }

  getUserByEmail(email: string): Promise<User | undefined> {
    return this.ctx.store.users.byEmail(email.trim().toLowerCase());
  }

  setPlan(userId: string, plan: Plan): Promise<void> {
    return this.ctx.store.users.setPlan(userId, plan);
  }

  /** The engine's owner acting directly (CLI, embedders): every scope, no token. */
  localPrincipal(user: User): Principal {
    return { userId: user.id, email: user.email, plan: user.plan, tokenId: 'local', scopes: [...ALL_SCOPES] };
  }

  async createOrganization(input: { name: string; ownerUserId: string }): Promise<Organization> {
    const org: Organization = { id: this.ctx.random.uuid(), name: input.name, createdAt: this.ctx.clock.now().toISOString() };
    await this.ctx.store.users.createOrganization(org, input.ownerUserId);
    return org;
  }

  addMember(orgId: string, userId: string, role: 'owner' | 'member' = 'member'): Promise<void> {
    return this.ctx.store.users.addMember(orgId, userId, role, this.ctx.clock.now().toISOString());
  }

  /** Who the caller is: the account, its organizations, its plan's limits and the calling token's scopes. */
  async profile(principal: Principal): Promise<Profile> {
    const user = await this.getUser(principal.userId);
    return {
      id: user.id,
      email: user.email,
      name: user.name,
      plan: user.plan,
      created_at: user.createdAt,
      organizations: (await this.organizationsOf(user.id)).map((o) => ({ id: o.id, name: o.name })),
      token: { id: principal.tokenId, scopes: principal.scopes },
      rate_limits: { per_hour: PLAN_RATE_LIMITS[user.plan].hour, per_day: PLAN_RATE_LIMITS[user.plan].day },
    };
  }

  organizationsOf(userId: string): Promise<Organization[]> {
    return this.ctx.store.users.organizationsOf(userId);
  }

  isMember(orgId: string, userId: string): Promise<boolean> {
    return this.ctx.store.users.isMember(orgId, userId);
  }
}
