import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorCodeOf, openTestEngine, sharingCast, type TestEngine } from '../testing/engine.js';
import type { Principal } from './schemas.js';
import type { ResourceRef } from './sharing.js';

let t: TestEngine;
let owner: Principal;
let colleague: Principal;
let outsider: Principal;
let orgId: string;

beforeEach(() => {
  t = openTestEngine();
  ({ owner, colleague, outsider, orgId } = sharingCast(t.engine));
});
afterEach(() => t.dispose());

const session = (): ResourceRef => ({ type: 'session', id: t.engine.context.random.uuid(), ownerUserId: owner.userId });

describe('sharing', () => {
  it('keeps a resource private until shared: only the owner reads it, others get 404', () => {
    const ref = session();
    expect(t.engine.sharing.accessLevel(owner, ref)).toBe('owner');
    expect(t.engine.sharing.accessLevel(colleague, ref)).toBeNull();
    expect(t.engine.sharing.accessLevel(null, ref)).toBeNull();
    expect(errorCodeOf(() => t.engine.sharing.assertCanRead(outsider, ref))).toBe('404 session_not_found');
    expect(t.engine.sharing.state('session', ref.id)).toEqual({ public_share: false, shared_with_org: false, organization_id: null });
  });

  it('gives org members org_viewer and outsiders nothing when shared with an org', () => {
    const ref = session();
    const state = t.engine.sharing.share(owner, ref, { shared_with_org: true, organization_id: orgId });
    expect(state).toEqual({ public_share: false, shared_with_org: true, organization_id: orgId });
    expect(t.engine.sharing.accessLevel(owner, ref)).toBe('owner');
    expect(t.engine.sharing.accessLevel(colleague, ref)).toBe('org_viewer');
    expect(errorCodeOf(() => t.engine.sharing.assertCanRead(outsider, ref))).toBe('404 session_not_found');
    expect(t.engine.sharing.accessLevel(null, ref)).toBeNull();
  });

  it('gives anyone public access to a publicly shared resource, and members still see org_viewer', () => {
    const ref = session();
    t.engine.sharing.share(owner, ref, { shared_with_org: true, organization_id: orgId });
    t.engine.sharing.share(owner, ref, { public_share: true });
    expect(t.engine.sharing.state('session', ref.id)).toEqual({ public_share: true, shared_with_org: true, organization_id: orgId });
    expect(t.engine.sharing.accessLevel(null, ref)).toBe('public');
    expect(t.engine.sharing.accessLevel(outsider, ref)).toBe('public');
    expect(t.engine.sharing.accessLevel(colleague, ref)).toBe('org_viewer');
    expect(() => t.engine.sharing.assertPublic(ref)).not.toThrow();
    t.engine.sharing.share(owner, ref, { public_share: false });
    expect(errorCodeOf(() => t.engine.sharing.assertPublic(ref))).toBe('404 session_not_found');
    expect(t.engine.sharing.accessLevel(colleague, ref)).toBe('org_viewer');
  });

  it('refuses sharing with an organization the sharer does not belong to (403)', () => {
    const ref: ResourceRef = { type: 'crawl', id: t.engine.context.random.uuid(), ownerUserId: outsider.userId };
    expect(errorCodeOf(() => t.engine.sharing.share(outsider, ref, { shared_with_org: true, organization_id: orgId }))).toBe(
      '403 organization_membership_required',
    );
    expect(t.engine.sharing.accessLevel(colleague, ref)).toBeNull();
  });

  it('answers 404 when someone other than the owner tries to share', () => {
    const ref = session();
    expect(errorCodeOf(() => t.engine.sharing.share(colleague, ref, { public_share: true }))).toBe('404 session_not_found');
  });

  it('validates the body: organization_id is required with shared_with_org, and an empty body is refused', () => {
    const ref = session();
    expect(errorCodeOf(() => t.engine.sharing.share(owner, ref, { shared_with_org: true }))).toBe('400 organization_id_required');
    expect(errorCodeOf(() => t.engine.sharing.share(owner, ref, {}))).toBe('400 share_body_empty');
  });

  it('unsharing from the org clears organization_id and removes org_viewer', () => {
    const ref = session();
    t.engine.sharing.share(owner, ref, { shared_with_org: true, organization_id: orgId });
    expect(t.engine.sharing.share(owner, ref, { shared_with_org: false })).toEqual({ public_share: false, shared_with_org: false, organization_id: null });
    expect(t.engine.sharing.accessLevel(colleague, ref)).toBeNull();
  });

  it('stops org access when the member leaves the organization', () => {
    const ref = session();
    t.engine.sharing.share(owner, ref, { shared_with_org: true, organization_id: orgId });
    t.engine.context.sqlite.prepare('delete from memberships where user_id = ?').run(colleague.userId);
    expect(t.engine.sharing.accessLevel(colleague, ref)).toBeNull();
  });

  it('cascades org sharing to cascadeTo resources and to linked children, but not public sharing', () => {
    const parent = session();
    const linkedCrawl: ResourceRef = { type: 'crawl', id: t.engine.context.random.uuid(), ownerUserId: owner.userId };
    const listedJob: ResourceRef = { type: 'search_job', id: t.engine.context.random.uuid(), ownerUserId: owner.userId };
    t.engine.sharing.link(linkedCrawl, parent);
    t.engine.sharing.share(owner, parent, { shared_with_org: true, organization_id: orgId, public_share: true }, { cascadeTo: [listedJob] });
    expect(t.engine.sharing.accessLevel(colleague, linkedCrawl)).toBe('org_viewer');
    expect(t.engine.sharing.accessLevel(colleague, listedJob)).toBe('org_viewer');
    expect(t.engine.sharing.accessLevel(null, linkedCrawl)).toBeNull();

    t.engine.sharing.share(owner, parent, { shared_with_org: false });
    expect(t.engine.sharing.accessLevel(colleague, linkedCrawl)).toBeNull();
  });

  it('gives a child linked after the parent was shared the parent org sharing', () => {
    const parent = session();
    t.engine.sharing.share(owner, parent, { shared_with_org: true, organization_id: orgId });
    const lateCrawl: ResourceRef = { type: 'crawl', id: t.engine.context.random.uuid(), ownerUserId: owner.userId };
    t.engine.sharing.link(lateCrawl, parent);
    expect(t.engine.sharing.accessLevel(colleague, lateCrawl)).toBe('org_viewer');
  });

  it('lists ids shared with my organizations, excluding my own and other types', () => {
    const mine = session();
    const other: ResourceRef = { type: 'session', id: t.engine.context.random.uuid(), ownerUserId: colleague.userId };
    const crawl: ResourceRef = { type: 'crawl', id: t.engine.context.random.uuid(), ownerUserId: owner.userId };
    t.engine.sharing.share(owner, mine, { shared_with_org: true, organization_id: orgId });
    t.engine.sharing.share(colleague, other, { shared_with_org: true, organization_id: orgId });
    t.engine.sharing.share(owner, crawl, { shared_with_org: true, organization_id: orgId });
    expect(t.engine.sharing.sharedWithMe(colleague, 'session')).toEqual([mine.id]);
    expect(t.engine.sharing.sharedWithMe(owner, 'session')).toEqual([other.id]);
    expect(t.engine.sharing.sharedWithMe(colleague, 'crawl')).toEqual([crawl.id]);
    expect(t.engine.sharing.sharedWithMe(outsider, 'session')).toEqual([]);
  });

  it('forgets a deleted resource, detaching its children without unsharing them', () => {
    const parent = session();
    const child: ResourceRef = { type: 'crawl', id: t.engine.context.random.uuid(), ownerUserId: owner.userId };
    t.engine.sharing.link(child, parent);
    t.engine.sharing.share(owner, parent, { shared_with_org: true, organization_id: orgId, public_share: true });
    t.engine.sharing.forget('session', parent.id);
    expect(t.engine.sharing.accessLevel(null, parent)).toBeNull();
    expect(t.engine.sharing.accessLevel(colleague, child)).toBe('org_viewer');
  });

  it('keeps two engines apart', () => {
    const other = openTestEngine();
    try {
      const ref = session();
      t.engine.sharing.share(owner, ref, { public_share: true });
      expect(other.engine.sharing.accessLevel(null, ref)).toBeNull();
    } finally {
      void other.dispose();
    }
  });
});
