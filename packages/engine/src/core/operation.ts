import type { z } from 'zod';

/**
 * One operation of the product, declared once by its capability: the server routes it, MCP
 * exposes it as a tool, the SDK is generated from it and embedders call it typed. `run` holds
 * no cross-cutting rule (scope, session binding, held credits, output checks): `runOperation` does.
 */

/** 'public' needs no caller; 'token' any caller; a scope (Sc) a caller holding it. */
export type OperationScope<Sc extends string = string> = 'public' | 'token' | Sc;

type Schema = z.ZodType | undefined;
type In<S extends Schema> = S extends z.ZodType ? z.input<S> : unknown;

/**
 * What reaches `run`: the parts as they came over the wire. The services validate bodies and
 * queries themselves, so an embedder calling a service directly gets the same 400 as anyone.
 */
export interface OperationInput {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
}

/**
 * What a `session_id` in the body does to an operation (runOperation acts on it): 'search',
 * 'crawl' and 'ask' run the body as that session's operation of the kind; 'check' only refuses a
 * session the call could not run in, so an estimate never promises what the create refuses.
 */
export type SessionBinding = 'search' | 'crawl' | 'ask' | 'check';

export interface RunContext {
  /** Aborts long work (a crawl, an ask); operations that finish at once ignore it. */
  signal?: AbortSignal;
}

export interface OperationSpec<Id extends string, Svc, Pr, A extends OperationScope, P extends Schema, Q extends Schema, B extends Schema, O extends z.ZodType> {
  /** The stable name: the OpenAPI operationId, the SDK's method key, the MCP tool's target. */
  id: Id;
  scope: A;
  /** The group the operation is listed under (OpenAPI tag, SDK resource). */
  tag: string;
  summary: string;
  description?: string;
  /** Path parameters, query and body, separated as the wire separates them. */
  params?: P;
  query?: Q;
  body?: B;
  output: O;
  /** Set when a `session_id` in the body binds the call to that session. */
  session?: SessionBinding;
  run(services: Svc, principal: A extends 'public' ? null : Pr, input: OperationInput, context: RunContext): Promise<z.output<O>> | z.output<O>;
}

/** An operation with its types erased, as the table holds it. */
export interface Operation<Svc = unknown, Pr = unknown, Sc extends string = string> {
  id: string;
  scope: OperationScope<Sc>;
  tag: string;
  summary: string;
  description?: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  output: z.ZodType;
  session?: SessionBinding;
  run(services: Svc, principal: Pr | null, input: OperationInput, context: RunContext): unknown;
}

/** The typed face of an operation: what an embedder passes (path, query and body fields side by side) and gets back. */
export interface Typed<Id extends string, I, O, Pr = unknown, Sc extends string = string> extends Operation<unknown, Pr, Sc> {
  readonly id: Id;
  /** Types only: never set. */
  readonly __types?: { input: I; output: O };
}

export type InputOf<T> = T extends { __types?: { input: infer I } } ? I : never;
export type OutputOf<T> = T extends { __types?: { output: infer O } } ? O : never;

type Flat<P extends Schema, Q extends Schema, B extends Schema> = (P extends z.ZodType ? z.input<P> : unknown) &
  (Q extends z.ZodType ? In<Q> : unknown) &
  (B extends z.ZodType ? In<B> : unknown);

/**
 * A `defineOperation` for one engine's caller type (Pr) and scopes (Sc): core knows neither, the
 * accounts capability binds them (accounts/operation.ts). It keeps each operation's types (for
 * embedders) while operations are collected in one table.
 */
export function operationKit<Pr, Sc extends string>() {
  return function defineOperation<
    const Id extends string,
    Svc,
    A extends OperationScope<Sc>,
    P extends Schema = undefined,
    Q extends Schema = undefined,
    B extends Schema = undefined,
    O extends z.ZodType = z.ZodType,
  >(spec: OperationSpec<Id, Svc, Pr, A, P, Q, B, O>): Typed<Id, Flat<P, Q, B>, z.output<O>, Pr, Sc> & { run: OperationSpec<Id, Svc, Pr, A, P, Q, B, O>['run'] } {
    return spec as never;
  };
}
