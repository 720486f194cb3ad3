import { and, asc, eq } from 'drizzle-orm';
import type { Organization, Plan, User } from '../../accounts/schemas.js';
import type { MemberRole, UsersPort } from '../ports/users.js';
import type { PgExecutor } from './executor.js';
import { memberships, organizations, users } from './tables/accounts.js';

/** Users, organizations and memberships on PostgreSQL. */
export class PgUsers implements UsersPort {
  constructor(private readonly ex: PgExecutor) {}

  private get db() {
    return this.ex.db;
  }

  async ensure(user: User): Promise<User> {
    await this.db.insert(users).values(user).onConflictDoNothing({ target: users.email });
    return (await this.byEmail(user.email))!;
  }

  async get(id: string): Promise<User | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.id, id));
    return row;
  }

  async byEmail(email: string): Promise<User | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.email, email));
    return row;
  }

  async setPlan(id: string, plan: Plan): Promise<void> {
    await this.db.update(users).set({ plan }).where(eq(users.id, id));
  }

  createOrganization(org: Organization, ownerUserId: string): Promise<void> {
    return this.ex.atomically(async () => {
      await this.db.insert(organizations).values(org);
      await this.addMember(org.id, ownerUserId, 'owner', org.createdAt);
    });
  }

  async addMember(orgId: string, userId: string, role: MemberRole, at: string): Promise<void> {
    await this.db
      .insert(memberships)
      .values({ orgId, userId, role, createdAt: at })
      .onConflictDoUpdate({ target: [memberships.orgId, memberships.userId], set: { role } });
  }

  organizationsOf(userId: string): Promise<Organization[]> {
    return this.db
      .select({ id: organizations.id, name: organizations.name, createdAt: organizations.createdAt })
      .from(memberships)
      .innerJoin(organizations, eq(memberships.orgId, organizations.id))
      .where(eq(memberships.userId, userId))
      .orderBy(asc(memberships.createdAt), asc(organizations.id));
  }

  async isMember(orgId: string, userId: string): Promise<boolean> {
    const rows = await this.db
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(and(eq(memberships.orgId, orgId), eq(memberships.userId, userId)));
    return rows.length > 0;
  }
}
