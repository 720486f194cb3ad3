import { operationKit, type Operation } from '../core/operation.js';
import type { Principal, Scope } from './schemas.js';

/** Declares one operation of this engine: its callers are principals, its scopes the API's. */
export const defineOperation = operationKit<Principal, Scope>();

/** An operation of this engine with its types erased, as the table holds it. */
export type EngineOperation = Operation<unknown, Principal, Scope>;
