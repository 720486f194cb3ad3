import { z } from 'zod';
import { TokenCreateBody, TokenCreatedSchema, TokenListSchema, TokenRecordSchema } from '@wvr/engine';
import { defineRoute } from '../route.js';

const TokenParams = z.object({ id: z.string().describe('Token id') });

export const tokenRoutes = [
  defineRoute({
    operationId: 'createToken',
    method: 'POST',
    path: '/tokens',
    auth: 'token',
    tag: 'tokens',
    summary: 'Create an API token',
    description:
      'The token is returned once. Its scopes must be a subset of the calling token’s scopes (403 scope_escalation), and it never outlives the calling token: without expires_in_days it inherits its expiry, past it is 400 token_outlives_parent.',
    body: TokenCreateBody,
    response: TokenCreatedSchema,
    successStatus: 201,
    handler: ({ engine, principal, body }) => engine.tokens.create(principal, body),
  }),
  defineRoute({
    operationId: 'listTokens',
    method: 'GET',
    path: '/tokens',
    auth: 'token',
    tag: 'tokens',
    summary: 'List your API tokens (never their secrets)',
    description: 'Only the tokens the calling token may manage: those whose scopes are a subset of its own.',
    response: TokenListSchema,
    handler: ({ engine, principal }) => engine.tokens.list(principal),
  }),
  defineRoute({
    operationId: 'revokeToken',
    method: 'DELETE',
    path: '/tokens/:id',
    auth: 'token',
    tag: 'tokens',
    summary: 'Revoke an API token',
    description: 'A token may revoke only tokens whose scopes are a subset of its own (403 token_management_forbidden otherwise).',
    params: TokenParams,
    response: TokenRecordSchema,
    handler: ({ engine, principal, params }) => engine.tokens.revoke(principal, params.id!),
  }),
];
