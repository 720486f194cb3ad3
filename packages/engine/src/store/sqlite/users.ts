import type Database from 'better-sqlite3';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from './open.js';
import type { Organization, Plan, User } from '../../accounts/schemas.js';
import type { MemberRole } from '../ports/users.js';
import { memberships, organizations, users } from './tables/accounts.js';

/** Users, organizations and memberships: today's drizzle statements. */
export class SqliteUsers {
  constructor(
    private readonly sqlite: Database.Database,
    private readonly db: Db,
  ) {}

  ensure(user: User): User {
    this.db.insert(users).values(user).onConflictDoNothing({ target: users.email }).run();
    return this.byEmail(user.email)!;
  }

  get(id: string): User | undefined {
    return this.db.select().from(users).where(eq(users.id, id)).get();
  }

  byEmail(email: string): User | undefined {
    return this.db.select().from(users).where(eq(users.email, email)).get();
  }

  setPlan(id: string, plan: Plan): void {
    this.db.update(users).set({ plan }).where(eq(users.id, id)).run();
  }

  createOrganization(org: Organization, ownerUserId: string): void {
    this.sqlite
      .transaction(() => {
        this.db.insert(organizations).values(org).run();
        this.addMember(org.id, ownerUserId, 'owner', org.createdAt);
      })
      .immediate();
  }

  addMember(orgId: string, userId: string, role: MemberRole, at: string): void {
    this.db
      .insert(memberships)
      .values({ orgId, userId, role, createdAt: at })
      .onConflictDoUpdate({ target: [memberships.orgId, memberships.userId], set: { role } })
      .run();
  }

  organizationsOf(userId: string): Organization[] {
    return this.db
      .select({ id: organizations.id, name: organizations.name, createdAt: organizations.createdAt })
      .from(memberships)
      .innerJoin(organizations, eq(memberships.orgId, organizations.id))
      .where(eq(memberships.userId, userId))
      .orderBy(asc(memberships.createdAt), asc(organizations.id))
      .all();
  }

  isMember(orgId: string, userId: string): boolean {
    const row = this.db
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(and(eq(memberships.orgId, orgId), eq(memberships.userId, userId)))
      .get();
    return row !== undefined;
  }
}
