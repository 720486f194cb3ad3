import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY } from '../core/clock.js';
import { errorCodeOf, openTestEngine, sqlOf, rejectionCodeOf, type TestEngine } from '../testing/engine.js';
import { requireScope } from './scopes.js';

let t: TestEngine;
beforeEach(() => {
  t = openTestEngine();
});
afterEach(() => t.dispose());

describe('tokens', () => {
  it('issues wvr_ tokens with a JWT body and stores only a hash', async () => {
    const user = await t.engine.accounts.ensureUser({ email: 'Ada@Example.test' });
    const created = await t.engine.tokens.issue(user.id, { name: 'ci', scopes: ['crawl'] });
    expect(created.token).toMatch(/^wvr_[\w-]+\.[\w-]+\.[\w-]+$/);
    const [header, payload] = created.token.slice(4).split('.');
    expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(JSON.parse(Buffer.from(payload!, 'base64url').toString())).toMatchObject({ jti: created.id, sub: user.id, scopes: ['crawl'] });
    const rows = await sqlOf(t.engine).all('select * from api_tokens');
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(created.token);
    expect(JSON.stringify(rows)).not.toContain(created.token.split('.')[2]);
  });

  it('authenticates a valid token into a principal with its scopes', async () => {
    const user = await t.engine.accounts.ensureUser({ email: 'a@x.test', plan: 'pro' });
    const { token } = await t.engine.tokens.issue(user.id, { name: 'x', scopes: ['search', 'sessions'] });
    expect(await t.engine.tokens.authenticate(`Bearer ${token}`)).toMatchObject({
      userId: user.id,
      plan: 'pro',
      scopes: ['search', 'sessions'],
    });
  });

  it('answers 401 with a distinct code for missing, malformed, unknown, revoked and expired tokens', async () => {
    const user = await t.engine.accounts.ensureUser({ email: 'a@x.test' });
    const revoked = await t.engine.tokens.issue(user.id, { name: 'old' });
    await t.engine.tokens.revoke(t.engine.accounts.localPrincipal(user), revoked.id);
    const expiring = await t.engine.tokens.issue(user.id, { name: 'short', expires_in_days: 1 });
    const forged = `${expiring.token.slice(0, -4)}AAAA`;

    expect(await rejectionCodeOf(() => t.engine.tokens.authenticate(undefined))).toBe('401 token_missing');
    expect(await rejectionCodeOf(() => t.engine.tokens.authenticate('Basic abc'))).toBe('401 token_malformed');
    expect(await rejectionCodeOf(() => t.engine.tokens.authenticate('Bearer sk_123'))).toBe('401 token_malformed');
    expect(await rejectionCodeOf(() => t.engine.tokens.authenticate(`Bearer ${forged}`))).toBe('401 token_invalid');
    expect(await rejectionCodeOf(() => t.engine.tokens.authenticate(`Bearer ${revoked.token}`))).toBe('401 token_revoked');
    expect(await rejectionCodeOf(() => t.engine.tokens.authenticate(`Bearer ${expiring.token}`))).toBe('no error');
    t.clock.advance(DAY + 1);
    expect(await rejectionCodeOf(() => t.engine.tokens.authenticate(`Bearer ${expiring.token}`))).toBe('401 token_expired');
  });

  it('refuses to create a token with scopes its creator lacks', async () => {
    const user = await t.engine.accounts.ensureUser({ email: 'a@x.test' });
    const { token } = await t.engine.tokens.issue(user.id, { name: 'narrow', scopes: ['search'] });
    const principal = await t.engine.tokens.authenticate(`Bearer ${token}`);
    expect(await rejectionCodeOf(() => t.engine.tokens.create(principal, { name: 'wide', scopes: ['crawl'] }))).toBe('403 scope_escalation');
    expect((await t.engine.tokens.create(principal, { name: 'same' })).scopes).toEqual(['search']);
  });

  it('validates the token body with stable codes', async () => {
    const user = await t.engine.accounts.ensureUser({ email: 'a@x.test' });
    expect(await rejectionCodeOf(() => t.engine.tokens.issue(user.id, {}))).toBe('400 name_required');
    expect(await rejectionCodeOf(() => t.engine.tokens.issue(user.id, { name: 'x', scopes: ['admin'] }))).toBe('400 scopes_invalid');
    expect(await rejectionCodeOf(() => t.engine.tokens.issue(user.id, { name: 'x', expires_in_days: 0 }))).toBe('400 expires_in_days_out_of_range');
    expect(await rejectionCodeOf(() => t.engine.tokens.issue(user.id, { name: 'x', extra: 1 }))).toBe('400 unknown_field');
  });

  it('lists only the caller’s tokens and never their secrets; revoking a foreign token is 404', async () => {
    const a = await t.engine.accounts.ensureUser({ email: 'a@x.test' });
    const b = await t.engine.accounts.ensureUser({ email: 'b@x.test' });
    const ta = await t.engine.tokens.issue(a.id, { name: 'a1' });
    await t.engine.tokens.issue(b.id, { name: 'b1' });
    const list = await t.engine.tokens.list(t.engine.accounts.localPrincipal(a));
    expect(list.data.map((x) => x.name)).toEqual(['a1']);
    expect(JSON.stringify(list)).not.toContain(ta.token);
    expect(await rejectionCodeOf(() => t.engine.tokens.revoke(t.engine.accounts.localPrincipal(b), ta.id))).toBe('404 token_not_found');
  });

  it('answers 403 scope_missing for a principal without the route scope', async () => {
    const user = await t.engine.accounts.ensureUser({ email: 'a@x.test' });
    const { token } = await t.engine.tokens.issue(user.id, { name: 'x', scopes: ['search'] });
    const principal = await t.engine.tokens.authenticate(`Bearer ${token}`);
    expect(errorCodeOf(() => requireScope(principal, 'crawl'))).toBe('403 scope_missing');
    expect(errorCodeOf(() => requireScope(principal, 'search'))).toBe('no error');
  });
  it('lets a token list and revoke only tokens whose scopes are a subset of its own', async () => {
    const user = await t.engine.accounts.ensureUser({ email: 'a@x.test' });
    const all = await t.engine.tokens.issue(user.id, { name: 'all' });
    const searchOnly = await t.engine.tokens.issue(user.id, { name: 'search', scopes: ['search'] });
    const sibling = await t.engine.tokens.issue(user.id, { name: 'search-2', scopes: ['search'] });
    const narrow = await t.engine.tokens.authenticate(`Bearer ${searchOnly.token}`);

    expect(await rejectionCodeOf(() => t.engine.tokens.revoke(narrow, all.id))).toBe('403 token_management_forbidden');
    expect(await rejectionCodeOf(() => t.engine.tokens.authenticate(`Bearer ${all.token}`))).toBe('no error');
    expect((await t.engine.tokens.list(narrow)).data.map((x) => x.name).sort()).toEqual(['search', 'search-2']);
    expect((await t.engine.tokens.revoke(narrow, sibling.id)).revoked_at).not.toBeNull();

    const wide = await t.engine.tokens.authenticate(`Bearer ${all.token}`);
    expect((await t.engine.tokens.revoke(wide, searchOnly.id)).revoked_at).not.toBeNull();
    expect(await rejectionCodeOf(() => t.engine.tokens.authenticate(`Bearer ${searchOnly.token}`))).toBe('401 token_revoked');
  });

  it('never lets a child token outlive its parent: it inherits the expiry, and asking past it is 400', async () => {
    const user = await t.engine.accounts.ensureUser({ email: 'a@x.test' });
    const parent = await t.engine.tokens.issue(user.id, { name: 'short', scopes: ['search', 'crawl'], expires_in_days: 2 });
    const principal = await t.engine.tokens.authenticate(`Bearer ${parent.token}`);

    expect((await t.engine.tokens.create(principal, { name: 'forever' })).expires_at).toBe(parent.expires_at);
    expect(await rejectionCodeOf(() => t.engine.tokens.create(principal, { name: 'year', expires_in_days: 365 }))).toBe('400 token_outlives_parent');
    expect(await rejectionCodeOf(() => t.engine.tokens.create(principal, { name: 'wide', scopes: ['workflow'] }))).toBe('403 scope_escalation');
    const child = await t.engine.tokens.create(principal, { name: 'day', scopes: ['search'], expires_in_days: 1 });
    expect(new Date(child.expires_at!).getTime()).toBeLessThan(new Date(parent.expires_at!).getTime());

    const unbounded = await t.engine.tokens.issue(user.id, { name: 'owner' });
    expect((await t.engine.tokens.create(await t.engine.tokens.authenticate(`Bearer ${unbounded.token}`), { name: 'free' })).expires_at).toBeNull();
  });
});
