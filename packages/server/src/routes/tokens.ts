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
    description: 'The token is returned once. Its scopes must be a subset of the calling token’s scopes.',
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
    params: TokenParams,
    response: TokenRecordSchema,
    handler: ({ engine, principal, params }) => engine.tokens.revoke(principal, params.id!),
  }),
];
