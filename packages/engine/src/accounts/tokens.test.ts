import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY } from '../core/clock.js';
import { errorCodeOf, openTestEngine, type TestEngine } from '../testing/engine.js';
import { requireScope } from './scopes.js';

let t: TestEngine;
beforeEach(() => {
  t = openTestEngine();
});
afterEach(() => t.dispose());

describe('tokens', () => {
  it('issues wvr_ tokens with a JWT body and stores only a hash', () => {
    const user = t.engine.accounts.ensureUser({ email: 'Ada@Example.test' });
    const created = t.engine.tokens.issue(user.id, { name: 'ci', scopes: ['crawl'] });
    expect(created.token).toMatch(/^wvr_[\w-]+\.[\w-]+\.[\w-]+$/);
    const [header, payload] = created.token.slice(4).split('.');
    expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(JSON.parse(Buffer.from(payload!, 'base64url').toString())).toMatchObject({ jti: created.id, sub: user.id, scopes: ['crawl'] });
    const rows = t.engine.context.sqlite.prepare('select * from api_tokens').all() as Record<string, unknown>[];
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(created.token);
    expect(JSON.stringify(rows)).not.toContain(created.token.split('.')[2]);
  });

  it('authenticates a valid token into a principal with its scopes', () => {
    const user = t.engine.accounts.ensureUser({ email: 'a@x.test', plan: 'pro' });
    const { token } = t.engine.tokens.issue(user.id, { name: 'x', scopes: ['search', 'sessions'] });
    expect(t.engine.tokens.authenticate(`Bearer ${token}`)).toMatchObject({
      userId: user.id,
      plan: 'pro',
      scopes: ['search', 'sessions'],
    });
  });

  it('answers 401 with a distinct code for missing, malformed, unknown, revoked and expired tokens', () => {
    const user = t.engine.accounts.ensureUser({ email: 'a@x.test' });
    const revoked = t.engine.tokens.issue(user.id, { name: 'old' });
    t.engine.tokens.revoke(t.engine.accounts.localPrincipal(user), revoked.id);
    const expiring = t.engine.tokens.issue(user.id, { name: 'short', expires_in_days: 1 });
    const forged = `${expiring.token.slice(0, -4)}AAAA`;

    expect(errorCodeOf(() => t.engine.tokens.authenticate(undefined))).toBe('401 token_missing');
    expect(errorCodeOf(() => t.engine.tokens.authenticate('Basic abc'))).toBe('401 token_malformed');
    expect(errorCodeOf(() => t.engine.tokens.authenticate('Bearer sk_123'))).toBe('401 token_malformed');
    expect(errorCodeOf(() => t.engine.tokens.authenticate(`Bearer ${forged}`))).toBe('401 token_invalid');
    expect(errorCodeOf(() => t.engine.tokens.authenticate(`Bearer ${revoked.token}`))).toBe('401 token_revoked');
    expect(errorCodeOf(() => t.engine.tokens.authenticate(`Bearer ${expiring.token}`))).toBe('no error');
    t.clock.advance(DAY + 1);
    expect(errorCodeOf(() => t.engine.tokens.authenticate(`Bearer ${expiring.token}`))).toBe('401 token_expired');
  });

  it('refuses to create a token with scopes its creator lacks', () => {
    const user = t.engine.accounts.ensureUser({ email: 'a@x.test' });
    const { token } = t.engine.tokens.issue(user.id, { name: 'narrow', scopes: ['search'] });
    const principal = t.engine.tokens.authenticate(`Bearer ${token}`);
    expect(errorCodeOf(() => t.engine.tokens.create(principal, { name: 'wide', scopes: ['crawl'] }))).toBe('403 scope_escalation');
    expect(t.engine.tokens.create(principal, { name: 'same' }).scopes).toEqual(['search']);
  });

  it('validates the token body with stable codes', () => {
    const user = t.engine.accounts.ensureUser({ email: 'a@x.test' });
    expect(errorCodeOf(() => t.engine.tokens.issue(user.id, {}))).toBe('400 name_required');
    expect(errorCodeOf(() => t.engine.tokens.issue(user.id, { name: 'x', scopes: ['admin'] }))).toBe('400 scopes_invalid');
    expect(errorCodeOf(() => t.engine.tokens.issue(user.id, { name: 'x', expires_in_days: 0 }))).toBe('400 expires_in_days_out_of_range');
    expect(errorCodeOf(() => t.engine.tokens.issue(user.id, { name: 'x', extra: 1 }))).toBe('400 unknown_field');
  });

  it('lists only the caller’s tokens and never their secrets; revoking a foreign token is 404', () => {
    const a = t.engine.accounts.ensureUser({ email: 'a@x.test' });
    const b = t.engine.accounts.ensureUser({ email: 'b@x.test' });
    const ta = t.engine.tokens.issue(a.id, { name: 'a1' });
    t.engine.tokens.issue(b.id, { name: 'b1' });
    const list = t.engine.tokens.list(t.engine.accounts.localPrincipal(a));
    expect(list.data.map((x) => x.name)).toEqual(['a1']);
    expect(JSON.stringify(list)).not.toContain(ta.token);
    expect(errorCodeOf(() => t.engine.tokens.revoke(t.engine.accounts.localPrincipal(b), ta.id))).toBe('404 token_not_found');
  });

  it('answers 403 scope_missing for a principal without the route scope', () => {
    const user = t.engine.accounts.ensureUser({ email: 'a@x.test' });
    const { token } = t.engine.tokens.issue(user.id, { name: 'x', scopes: ['search'] });
    const principal = t.engine.tokens.authenticate(`Bearer ${token}`);
    expect(errorCodeOf(() => requireScope(principal, 'crawl'))).toBe('403 scope_missing');
    expect(errorCodeOf(() => requireScope(principal, 'search'))).toBe('no error');
  });
  it('lets a token list and revoke only tokens whose scopes are a subset of its own', () => {
    const user = t.engine.accounts.ensureUser({ email: 'a@x.test' });
    const all = t.engine.tokens.issue(user.id, { name: 'all' });
    const searchOnly = t.engine.tokens.issue(user.id, { name: 'search', scopes: ['search'] });
    const sibling = t.engine.tokens.issue(user.id, { name: 'search-2', scopes: ['search'] });
    const narrow = t.engine.tokens.authenticate(`Bearer ${searchOnly.token}`);

    expect(errorCodeOf(() => t.engine.tokens.revoke(narrow, all.id))).toBe('403 token_management_forbidden');
    expect(errorCodeOf(() => t.engine.tokens.authenticate(`Bearer ${all.token}`))).toBe('no error');
    expect(t.engine.tokens.list(narrow).data.map((x) => x.name).sort()).toEqual(['search', 'search-2']);
    expect(t.engine.tokens.revoke(narrow, sibling.id).revoked_at).not.toBeNull();

    const wide = t.engine.tokens.authenticate(`Bearer ${all.token}`);
    expect(t.engine.tokens.revoke(wide, searchOnly.id).revoked_at).not.toBeNull();
    expect(errorCodeOf(() => t.engine.tokens.authenticate(`Bearer ${searchOnly.token}`))).toBe('401 token_revoked');
  });

  it('never lets a child token outlive its parent: it inherits the expiry, and asking past it is 400', () => {
    const user = t.engine.accounts.ensureUser({ email: 'a@x.test' });
    const parent = t.engine.tokens.issue(user.id, { name: 'short', scopes: ['search', 'crawl'], expires_in_days: 2 });
    const principal = t.engine.tokens.authenticate(`Bearer ${parent.token}`);

    expect(t.engine.tokens.create(principal, { name: 'forever' }).expires_at).toBe(parent.expires_at);
    expect(errorCodeOf(() => t.engine.tokens.create(principal, { name: 'year', expires_in_days: 365 }))).toBe('400 token_outlives_parent');
    expect(errorCodeOf(() => t.engine.tokens.create(principal, { name: 'wide', scopes: ['workflow'] }))).toBe('403 scope_escalation');
    const child = t.engine.tokens.create(principal, { name: 'day', scopes: ['search'], expires_in_days: 1 });
    expect(new Date(child.expires_at!).getTime()).toBeLessThan(new Date(parent.expires_at!).getTime());

    const unbounded = t.engine.tokens.issue(user.id, { name: 'owner' });
    expect(t.engine.tokens.create(t.engine.tokens.authenticate(`Bearer ${unbounded.token}`), { name: 'free' }).expires_at).toBeNull();
  });
});
