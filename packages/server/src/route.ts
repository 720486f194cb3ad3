import type { z } from 'zod';
import type { EngineOperation as Operation, OperationScope, Scope } from '@wvr/engine';

/** 'public' needs no token; 'token' needs any valid token; a scope needs a token carrying it. */
export type RouteAuth = OperationScope<Scope>;

/** How one operation is reached over HTTP: the engine's operation, and its method and path. */
export interface RouteHttp {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Below the version prefix, in Fastify form: `/tokens/:id`. */
  path: string;
  successStatus?: number;
  /** The route takes dry_run: a dry run creates nothing, so it answers 200 whatever successStatus says. */
  dryRun?: boolean;
}

/** A route: the HTTP details, with the operation's declaration spelled out for OpenAPI and the tests. */
export interface RouteDef extends RouteHttp {
  operation: Operation;
  operationId: string;
  auth: RouteAuth;
  tag: string;
  summary: string;
  description?: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
}

export const routeOf = (operation: Operation, http: RouteHttp): RouteDef => ({
  ...http,
  operation,
  operationId: operation.id,
  auth: operation.scope,
  tag: operation.tag,
  summary: operation.summary,
  ...(operation.description ? { description: operation.description } : {}),
  ...(operation.params ? { params: operation.params } : {}),
  ...(operation.query ? { query: operation.query } : {}),
  ...(operation.body ? { body: operation.body } : {}),
  response: operation.output,
});
