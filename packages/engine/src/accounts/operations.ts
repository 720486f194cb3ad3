import { z } from 'zod';
import { defineOperation } from './operation.js';
import { ProfileSchema, TokenCreateBody, TokenCreatedSchema, TokenListSchema, TokenRecordSchema } from './schemas.js';
import type { AccountsService } from './service.js';
import type { TokensService } from './tokens.js';

const TokenParams = z.object({ id: z.string().describe('Token id') });
const base = { scope: 'token', tag: 'tokens' } as const;

export const tokenOperations = {
  create: defineOperation({
    ...base,
    id: 'createToken',
    summary: 'Create an API token',
    description:
      'The token is returned once. Its scopes must be a subset of the calling token’s scopes (403 scope_escalation), and it never outlives the calling token: without expires_in_days it inherits its expiry, past it is 400 token_outlives_parent.',
    body: TokenCreateBody,
    output: TokenCreatedSchema,
    run: (s: { tokens: TokensService }, principal, { body }) => s.tokens.create(principal, body),
  }),
  list: defineOperation({
    ...base,
    id: 'listTokens',
    summary: 'List your API tokens (never their secrets)',
    description: 'Only the tokens the calling token may manage: those whose scopes are a subset of its own.',
    output: TokenListSchema,
    run: (s: { tokens: TokensService }, principal) => s.tokens.list(principal),
  }),
  revoke: defineOperation({
    ...base,
    id: 'revokeToken',
    summary: 'Revoke an API token',
    description: 'A token may revoke only tokens whose scopes are a subset of its own (403 token_management_forbidden otherwise).',
    params: TokenParams,
    output: TokenRecordSchema,
    run: (s: { tokens: TokensService }, principal, { params }) => s.tokens.revoke(principal, params.id!),
  }),
};

export const accountOperations = {
  profile: defineOperation({
    scope: 'token',
    tag: 'account',
    id: 'getProfile',
    summary: 'Your account: plan, organizations, rate limits and the calling token’s scopes',
    output: ProfileSchema,
    run: (s: { accounts: AccountsService }, principal) => s.accounts.profile(principal),
  }),
};
