import type { components, operations } from '../generated/openapi.js';
import { OPERATIONS, type OperationId } from '../generated/operations.js';
import type { Request } from '../transport.js';

/** The API's named schemas, generated from openapi.json. */
export type Schemas = components['schemas'];

/**
 * An operation that takes `dry_run`: `dry_run: true` answers the estimate, no or `false` dry_run the
 * real result, and a `boolean` known only at run time either (narrow with `'dry_run' in result`).
 */
export interface DryRunAware<Body, Real, Dry, Before extends unknown[] = []> {
  (...args: [...Before, body: Body & { dry_run: true }]): Promise<Dry>;
  (...args: [...Before, body: Body & { dry_run?: false | undefined }]): Promise<Real>;
  (...args: [...Before, body: Body]): Promise<Real | Dry>;
}

type Op<Id extends OperationId> = operations[Id];
type Json<R> = R extends { content: { 'application/json': infer J } } ? J : never;
/** What an operation answers on success (200, 201 or 202), from the generated types. */
export type Output<Id extends OperationId> = Json<Op<Id>['responses'][Extract<keyof Op<Id>['responses'], 200 | 201 | 202>]>;
/** An operation's JSON body. */
export type Body<Id extends OperationId> = Json<NonNullable<Op<Id>['requestBody']>>;
/** An operation's query parameters. */
export type Query<Id extends OperationId> = NonNullable<Op<Id>['parameters']['query']>;

export interface OperationRequest {
  /** The `{id}` path parameter, for operations on one resource. */
  id?: string;
  query?: object;
  body?: unknown;
}

/**
 * Calls operations by operationId: the method and path come from the generated table
 * (src/generated/operations.ts), the answer's type from the generated OpenAPI types.
 */
export const operationCaller =
  (request: Request) =>
  <Id extends OperationId>(id: Id, init: OperationRequest = {}): Promise<Output<Id>> => {
    const { method, path } = OPERATIONS[id];
    const url = init.id === undefined ? path : path.replace('{id}', encodeURIComponent(init.id));
    return request<Output<Id>>(method, url, {
      ...(init.query ? { query: { ...init.query } } : {}),
      ...(init.body === undefined ? {} : { body: init.body }),
    });
  };
