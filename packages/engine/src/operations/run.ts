import type { Principal, Scope } from '../accounts/schemas.js';
import { requireScope } from '../accounts/scopes.js';
import { errors } from '../core/errors.js';
import type { Operation, OperationInput } from '../core/operation.js';
import { boundSession, runBound, type SessionServices } from './session-binding.js';

export interface RunOperationOptions {
  signal?: AbortSignal;
  /**
   * Parse what the operation answers against its output schema, failing with a 500 naming the
   * field when the two disagree. Test engines turn it on (`validateOutputs`); production skips the cost.
   */
  validateOutput?: boolean;
}

/**
 * Runs one operation for one caller: the rules every operation shares live here, once.
 * The server, MCP and `engine.ops` all come through this function. A body naming a session_id
 * binds the call to that session here, above the services, so no capability knows sessions.
 */
export async function runOperation<Svc>(
  services: Svc & SessionServices,
  operation: Operation<Svc, Principal, Scope>,
  principal: Principal | null,
  input: OperationInput,
  options: RunOperationOptions = {},
): Promise<unknown> {
  if (operation.scope !== 'public') {
    if (!principal) throw errors.unauthenticated('token_missing', `${operation.id} needs a caller.`);
    if (operation.scope !== 'token') requireScope(principal, operation.scope);
  }
  options.signal?.throwIfAborted();
  const run = () => operation.run(services, principal, input, options.signal ? { signal: options.signal } : {});
  // Operations that may run in a session all need a caller, so a bound call always has one.
  const bound = boundSession(operation, input.body);
  const result = await (bound && principal ? runBound(services, bound, principal, input.body, run) : run());
  if (options.validateOutput) checkOutput(operation, result);
  return result;
}

function checkOutput(operation: Operation<never, never>, result: unknown): void {
  const parsed = operation.output.safeParse(result);
  if (parsed.success) return;
  const [issue] = parsed.error.issues;
  const where = issue?.path.join('.') || 'the answer';
  throw errors.internal(`${operation.id} answered outside its output schema: ${where} ${issue?.message ?? 'is invalid'}.`, parsed.error);
}

/**
 * The wire parts of a flat input (what embedders and MCP tools pass): path parameters, query
 * fields and body fields, each sent where the operation declares it.
 */
export function splitInput(operation: Operation, flat: Record<string, unknown>, what = 'operation'): OperationInput {
  const paramKeys = keysOf(operation.params);
  const queryKeys = keysOf(operation.query);
  const params: Record<string, string> = {};
  const query: Record<string, unknown> = {};
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(flat)) {
    if (paramKeys.has(key)) params[key] = String(value);
    else if (queryKeys.has(key)) query[key] = value;
    else body[key] = value;
  }
  if (!operation.body && Object.keys(body).length > 0) {
    const names = Object.keys(body);
    throw errors.validation('unknown_field', `Unknown argument${names.length > 1 ? 's' : ''}: ${names.join(', ')}.`, {
      details: { fields: names.map((path) => ({ path, code: 'unknown_field', message: `is not an argument of this ${what}` })) },
    });
  }
  return { params, query, body: operation.body ? body : undefined };
}

function keysOf(schema: unknown): Set<string> {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return new Set(shape && typeof shape === 'object' ? Object.keys(shape) : []);
}
