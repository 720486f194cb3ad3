import { createHash, createHmac } from 'node:crypto';
import type { EngineContext } from '../context.js';
import { DAY, MINUTE } from '../core/clock.js';
import { errors } from '../core/errors.js';
import { parseInput } from '../core/validate.js';
import type { AccountsService } from './service.js';
import { signingSecret } from './secret.js';
import type { TokenRow } from '../store/ports/accounts.js';
import {
  ScopeSchema,
  TokenCreateBody,
  type Principal,
  type Scope,
  type TokenCreated,
  type TokenList,
  type TokenRecord,
} from './schemas.js';

const TOKEN_PATTERN = /^wvr_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export class TokensService {
  constructor(
    private readonly ctx: EngineContext,
    private readonly accounts: AccountsService,
  ) {}

  /**
   * `POST /v1/tokens`: a child token never out-scopes nor outlives the token that creates it.
   * Omitting `expires_in_days` under an expiring token inherits its expiry; asking past it is a 400.
   */
  async create(principal: Principal, input: unknown): Promise<TokenCreated> {
    const body = parseInput(TokenCreateBody, input);
    const scopes = body.scopes ?? principal.scopes;
    const beyond = scopes.filter((s) => !principal.scopes.includes(s));
    if (beyond.length > 0) {
      throw errors.forbidden('scope_escalation', `A token cannot grant scopes its creator lacks: ${beyond.join(', ')}.`, {
        details: { requested: scopes, allowed: principal.scopes },
        suggestions: ['Ask only for scopes your current token has, or create the token with the CLI as the account owner.'],
      });
    }
    const now = this.ctx.clock.now();
    const parentExpiry = principal.tokenExpiresAt ? new Date(principal.tokenExpiresAt) : null;
    const requested = this.expiryAfter(body.expires_in_days);
    if (parentExpiry && requested && requested > parentExpiry) {
      throw errors.validation('token_outlives_parent', `The new token would expire after the token creating it (${principal.tokenExpiresAt}).`, {
        details: { requested_expires_at: requested.toISOString(), parent_expires_at: principal.tokenExpiresAt },
        suggestions: [
          `Ask for at most ${Math.floor((parentExpiry.getTime() - now.getTime()) / DAY)} days, or omit expires_in_days to inherit the parent's expiry.`,
        ],
      });
    }
    return this.mint(principal.userId, body.name, scopes, requested ?? parentExpiry);
  }

  /** The owner's path (CLI, embedders): no principal, any scopes. */
  async issue(userId: string, input: unknown): Promise<TokenCreated> {
    const body = parseInput(TokenCreateBody, input);
    await this.accounts.getUser(userId);
    return this.mint(userId, body.name, body.scopes ?? [...ScopeSchema.options], this.expiryAfter(body.expires_in_days));
  }

  /** The caller's tokens it may manage: those whose scopes are a subset of its own (see `manages`). */
  async list(principal: Principal): Promise<TokenList> {
    const rows = await this.ctx.store.accounts.tokensOf(principal.userId);
    return { data: rows.filter((row) => manages(principal, row)).map(toRecord) };
  }

  async revoke(principal: Principal, id: string): Promise<TokenRecord> {
    const row = await this.ctx.store.accounts.token(id, principal.userId);
    if (!row) throw errors.notFound('token', id);
    if (!manages(principal, row)) {
      throw errors.forbidden('token_management_forbidden', 'A token may revoke only tokens whose scopes are a subset of its own.', {
        details: { token_scopes: row.scopes, caller_scopes: principal.scopes },
        suggestions: ['Revoke it with a token that carries all of its scopes, or with `wvr tokens revoke` as the account owner.'],
      });
    }
    if (!row.revokedAt) await this.ctx.store.accounts.revokeToken(id, this.ctx.clock.now().toISOString());
    return toRecord((await this.ctx.store.accounts.token(id, principal.userId))!);
  }

  /** Turns an Authorization header into a principal, or throws the matching 401. */
  async authenticate(authorization: string | undefined): Promise<Principal> {
    if (!authorization || authorization.trim() === '') {
      throw errors.unauthenticated('token_missing', 'No API token: send `Authorization: Bearer wvr_...`.');
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    const token = match?.[1];
    if (!token || !TOKEN_PATTERN.test(token)) {
      throw errors.unauthenticated('token_malformed', 'The Authorization header is not `Bearer wvr_<token>`.');
    }
    const row = await this.ctx.store.accounts.tokenByHash(hashToken(token));
    if (!row) throw errors.unauthenticated('token_invalid', 'This API token is not known.');
    const now = this.ctx.clock.now();
    if (row.revokedAt) {
      throw errors.unauthenticated('token_revoked', 'This API token was revoked.', { details: { token_id: row.id } });
    }
    if (row.expiresAt && new Date(row.expiresAt) <= now) {
      throw errors.unauthenticated('token_expired', `This API token expired at ${row.expiresAt}.`, {
        details: { token_id: row.id, expired_at: row.expiresAt },
      });
    }
    // Writing on every request would serialise readers on the WAL; a minute's precision is enough.
    if (!row.lastUsedAt || now.getTime() - new Date(row.lastUsedAt).getTime() > MINUTE) {
      await this.ctx.store.accounts.touchToken(row.id, now.toISOString());
    }
    const user = await this.accounts.getUser(row.userId);
    return { userId: user.id, email: user.email, plan: user.plan, tokenId: row.id, scopes: row.scopes as Scope[], tokenExpiresAt: row.expiresAt };
  }

  private expiryAfter(days: number | undefined): Date | null {
    return days ? new Date(this.ctx.clock.now().getTime() + days * DAY) : null;
  }

  private async mint(userId: string, name: string, scopes: Scope[], expiresAt: Date | null): Promise<TokenCreated> {
    const id = this.ctx.random.uuid();
    const now = this.ctx.clock.now();
    const header = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
    const payload = b64url(
      JSON.stringify({
        jti: id,
        sub: userId,
        iat: Math.floor(now.getTime() / 1000),
        ...(expiresAt ? { exp: Math.floor(expiresAt.getTime() / 1000) } : {}),
        scopes,
        // Two tokens minted in the same second with the same claims must still differ.
        nonce: this.ctx.random.bytes(12).toString('base64url'),
      }),
    );
    const signature = createHmac('sha256', await signingSecret(this.ctx)).update(`${header}.${payload}`).digest('base64url');
    const token = `wvr_${header}.${payload}.${signature}`;
    const row: TokenRow = {
      id,
      userId,
      name,
      scopes,
      tokenHash: hashToken(token),
      // Every token starts with the same JWT header, so the signature's tail is what tells them apart.
      prefix: `wvr_…${signature.slice(-8)}`,
      expiresAt: expiresAt?.toISOString() ?? null,
      revokedAt: null,
      lastUsedAt: null,
      createdAt: now.toISOString(),
    };
    await this.ctx.store.accounts.insertToken(row);
    return { ...toRecord(row), token };
  }
}

/**
 * Token management rule: a token manages (lists, revokes) only tokens whose scopes are a subset of
 * its own, so a narrow token can never lock out a wider one. The local owner holds every scope.
 */
function manages(principal: Principal, row: TokenRow): boolean {
  return (row.scopes as Scope[]).every((s) => principal.scopes.includes(s));
}

function toRecord(row: TokenRow): TokenRecord {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes as Scope[],
    prefix: row.prefix,
    created_at: row.createdAt,
    expires_at: row.expiresAt,
    revoked_at: row.revokedAt,
    last_used_at: row.lastUsedAt,
  };
}
