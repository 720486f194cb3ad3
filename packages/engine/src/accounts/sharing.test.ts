import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestEngine, sqlOf, rejectionCodeOf, sharingCast, type TestEngine } from '../testing/engine.js';
import type { Principal } from './schemas.js';
import type { ResourceRef } from './sharing.js';

let t: TestEngine;
let owner: Principal;
let colleague: Principal;
let outsider: Principal;
let orgId: string;

beforeEach(async () => {
  t = openTestEngine();
  ({ owner, colleague, outsider, orgId } = await sharingCast(t.engine));
});
afterEach(() => t.dispose());

const session = (): ResourceRef => ({ type: 'session', id: t.engine.context.random.uuid(), ownerUserId: owner.userId });

describe('sharing', () => {
  it('keeps a resource private until shared: only the owner reads it, others get 404', async () => {
    const ref = session();
    expect(await t.engine.sharing.accessLevel(owner, ref)).toBe('owner');
    expect(await t.engine.sharing.accessLevel(colleague, ref)).toBeNull();
    expect(await t.engine.sharing.accessLevel(null, ref)).toBeNull();
    expect(await rejectionCodeOf(() => t.engine.sharing.assertCanRead(outsider, ref))).toBe('404 session_not_found');
    expect(await t.engine.sharing.state('session', ref.id)).toEqual({ public_share: false, shared_with_org: false, organization_id: null });
  });

  it('gives org members org_viewer and outsiders nothing when shared with an org', async () => {
    const ref = session();
    const state = await t.engine.sharing.share(owner, ref, { shared_with_org: true, organization_id: orgId });
    expect(state).toEqual({ public_share: false, shared_with_org: true, organization_id: orgId });
    expect(await t.engine.sharing.accessLevel(owner, ref)).toBe('owner');
    expect(await t.engine.sharing.accessLevel(colleague, ref)).toBe('org_viewer');
    expect(await rejectionCodeOf(() => t.engine.sharing.assertCanRead(outsider, ref))).toBe('404 session_not_found');
    expect(await t.engine.sharing.accessLevel(null, ref)).toBeNull();
  });

  it('gives anyone public access to a publicly shared resource, and members still see org_viewer', async () => {
    const ref = session();
    await t.engine.sharing.share(owner, ref, { shared_with_org: true, organization_id: orgId });
    await t.engine.sharing.share(owner, ref, { public_share: true });
    expect(await t.engine.sharing.state('session', ref.id)).toEqual({ public_share: true, shared_with_org: true, organization_id: orgId });
    expect(await t.engine.sharing.accessLevel(null, ref)).toBe('public');
    expect(await t.engine.sharing.accessLevel(outsider, ref)).toBe('public');
    expect(await t.engine.sharing.accessLevel(colleague, ref)).toBe('org_viewer');
    await expect(t.engine.sharing.assertPublic(ref)).resolves.toBeUndefined();
    await t.engine.sharing.share(owner, ref, { public_share: false });
    expect(await rejectionCodeOf(() => t.engine.sharing.assertPublic(ref))).toBe('404 session_not_found');
    expect(await t.engine.sharing.accessLevel(colleague, ref)).toBe('org_viewer');
  });

  it('refuses sharing with an organization the sharer does not belong to (403)', async () => {
    const ref: ResourceRef = { type: 'crawl', id: t.engine.context.random.uuid(), ownerUserId: outsider.userId };
    expect(await rejectionCodeOf(() => t.engine.sharing.share(outsider, ref, { shared_with_org: true, organization_id: orgId }))).toBe(
      '403 organization_membership_required',
    );
    expect(await t.engine.sharing.accessLevel(colleague, ref)).toBeNull();
  });

  it('answers 404 when someone other than the owner tries to share', async () => {
    const ref = session();
    expect(await rejectionCodeOf(() => t.engine.sharing.share(colleague, ref, { public_share: true }))).toBe('404 session_not_found');
  });

  it('validates the body: organization_id is required with shared_with_org, and an empty body is refused', async () => {
    const ref = session();
    expect(await rejectionCodeOf(() => t.engine.sharing.share(owner, ref, { shared_with_org: true }))).toBe('400 organization_id_required');
    expect(await rejectionCodeOf(() => t.engine.sharing.share(owner, ref, {}))).toBe('400 share_body_empty');
  });

  it('unsharing from the org clears organization_id and removes org_viewer', async () => {
    const ref = session();
    await t.engine.sharing.share(owner, ref, { shared_with_org: true, organization_id: orgId });
    expect(await t.engine.sharing.share(owner, ref, { shared_with_org: false })).toEqual({ public_share: false, shared_with_org: false, organization_id: null });
    expect(await t.engine.sharing.accessLevel(colleague, ref)).toBeNull();
  });

  it('stops org access when the member leaves the organization', async () => {
    const ref = session();
    await t.engine.sharing.share(owner, ref, { shared_with_org: true, organization_id: orgId });
    await sqlOf(t.engine).run('delete from memberships where user_id = ?', colleague.userId);
    expect(await t.engine.sharing.accessLevel(colleague, ref)).toBeNull();
  });

  it('cascades org sharing to cascadeTo resources and to linked children, but not public sharing', async () => {
    const parent = session();
    const linkedCrawl: ResourceRef = { type: 'crawl', id: t.engine.context.random.uuid(), ownerUserId: owner.userId };
    const listedJob: ResourceRef = { type: 'search_job', id: t.engine.context.random.uuid(), ownerUserId: owner.userId };
    await t.engine.sharing.link(linkedCrawl, parent);
    await t.engine.sharing.share(owner, parent, { shared_with_org: true, organization_id: orgId, public_share: true }, { cascadeTo: [listedJob] });
    expect(await t.engine.sharing.accessLevel(colleague, linkedCrawl)).toBe('org_viewer');
    expect(await t.engine.sharing.accessLevel(colleague, listedJob)).toBe('org_viewer');
    expect(await t.engine.sharing.accessLevel(null, linkedCrawl)).toBeNull();

    await t.engine.sharing.share(owner, parent, { shared_with_org: false });
    expect(await t.engine.sharing.accessLevel(colleague, linkedCrawl)).toBeNull();
  });

  it('gives a child linked after the parent was shared the parent org sharing', async () => {
    const parent = session();
    await t.engine.sharing.share(owner, parent, { shared_with_org: true, organization_id: orgId });
    const lateCrawl: ResourceRef = { type: 'crawl', id: t.engine.context.random.uuid(), ownerUserId: owner.userId };
    await t.engine.sharing.link(lateCrawl, parent);
    expect(await t.engine.sharing.accessLevel(colleague, lateCrawl)).toBe('org_viewer');
  });

  it('lists ids shared with my organizations, excluding my own and other types', async () => {
    const mine = session();
    const other: ResourceRef = { type: 'session', id: t.engine.context.random.uuid(), ownerUserId: colleague.userId };
    const crawl: ResourceRef = { type: 'crawl', id: t.engine.context.random.uuid(), ownerUserId: owner.userId };
    await t.engine.sharing.share(owner, mine, { shared_with_org: true, organization_id: orgId });
    await t.engine.sharing.share(colleague, other, { shared_with_org: true, organization_id: orgId });
    await t.engine.sharing.share(owner, crawl, { shared_with_org: true, organization_id: orgId });
    expect(await t.engine.sharing.sharedWithMe(colleague, 'session')).toEqual([mine.id]);
    expect(await t.engine.sharing.sharedWithMe(owner, 'session')).toEqual([other.id]);
    expect(await t.engine.sharing.sharedWithMe(colleague, 'crawl')).toEqual([crawl.id]);
    expect(await t.engine.sharing.sharedWithMe(outsider, 'session')).toEqual([]);
  });

  it('forgets a deleted resource, detaching its children without unsharing them', async () => {
    const parent = session();
    const child: ResourceRef = { type: 'crawl', id: t.engine.context.random.uuid(), ownerUserId: owner.userId };
    await t.engine.sharing.link(child, parent);
    await t.engine.sharing.share(owner, parent, { shared_with_org: true, organization_id: orgId, public_share: true });
    await t.engine.sharing.forget('session', parent.id);
    expect(await t.engine.sharing.accessLevel(null, parent)).toBeNull();
    expect(await t.engine.sharing.accessLevel(colleague, child)).toBe('org_viewer');
  });

  it('keeps two engines apart', async () => {
    const other = openTestEngine();
    try {
      const ref = session();
      await t.engine.sharing.share(owner, ref, { public_share: true });
      expect(await other.engine.sharing.accessLevel(null, ref)).toBeNull();
    } finally {
      void other.dispose();
    }
  });
});
