import type { Organization, Plan, User } from '../../accounts/schemas.js';

export type MemberRole = 'owner' | 'member';

/** Users, the organizations they form and who belongs to which. Emails are stored as given (the service lowercases them). */
export interface UsersPort {
  /**
   * The user with `user.email`; when there is none yet, stores `user` first. Two callers (or two
   * processes) racing on a first sight both get the user that won, never a duplicate-email error.
   */
  ensure(user: User): Promise<User>;
  get(id: string): Promise<User | undefined>;
  byEmail(email: string): Promise<User | undefined>;
  setPlan(id: string, plan: Plan): Promise<void>;

  /** Stores the organization and its owner's membership in one write. */
  createOrganization(org: Organization, ownerUserId: string): Promise<void>;
  /** Adds the user to the organization, or gives a member the new role. */
  addMember(orgId: string, userId: string, role: MemberRole, at: string): Promise<void>;
  /** The organizations the user belongs to, in the order it joined them. */
  organizationsOf(userId: string): Promise<Organization[]>;
  isMember(orgId: string, userId: string): Promise<boolean>;
}
