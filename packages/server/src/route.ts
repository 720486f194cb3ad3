import type { z } from 'zod';
import type { Engine, Principal, Scope } from '@wvr/engine';

/** 'public' needs no token; 'token' needs any valid token; a scope needs a token carrying it. */
export type RouteAuth = 'public' | 'token' | Scope;

export interface RouteRequest<A extends RouteAuth> {
  engine: Engine;
  principal: A extends 'public' ? null : Principal;
  params: Record<string, string>;
  query: Record<string, unknown>;
  /** Raw: the engine validates bodies itself, so embedders and HTTP callers get the same 400s. */
  body: unknown;
}

export interface RouteDef<A extends RouteAuth = RouteAuth> {
  operationId: string;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Below the version prefix, in Fastify form: `/tokens/:id`. */
  path: string;
  auth: A;
  tag: string;
  summary: string;
  description?: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
  successStatus?: number;
  /** The route takes dry_run: a dry run creates nothing, so it answers 200 whatever successStatus says. */
  dryRun?: boolean;
  handler(request: RouteRequest<A>): unknown;
}

/** Keeps each route's handler typed by its auth kind while routes are collected in one list. */
export const defineRoute = <A extends RouteAuth>(route: RouteDef<A>): RouteDef => route as unknown as RouteDef;
