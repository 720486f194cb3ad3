import type { Principal } from '../accounts/schemas.js';
import type { Operation, SessionBinding } from '../core/operation.js';
import { parseInput } from '../core/validate.js';
import type { SessionRunners } from '../sessions/runners.js';

/** What runOperation needs to bind a call to a session: the engine's session runners. */
export interface SessionServices {
  sessionRunners: Pick<SessionRunners, SessionBinding>;
}

export interface BoundSession {
  binding: SessionBinding;
  sessionId: string;
}

/**
 * The session a call's body names, when its operation may run in one (`session` on the
 * operation). The body is parsed against the operation's own schema first, so a malformed request
 * answers the 400 it answers without a session, before any session is looked at.
 */
export function boundSession(operation: Operation<never, never>, body: unknown): BoundSession | undefined {
  if (!operation.session || !operation.body || typeof body !== 'object' || body === null || !('session_id' in body)) return undefined;
  const { session_id: sessionId } = parseInput(operation.body, body) as { session_id?: string };
  return sessionId ? { binding: operation.session, sessionId } : undefined;
}

/**
 * Runs a bound call: 'search', 'crawl' and 'ask' run as that session's operation (checked,
 * recorded on its timeline, given its context); 'check' refuses a session the call could not run
 * in, then the operation runs as it would without one.
 */
export async function runBound(services: SessionServices, bound: BoundSession, principal: Principal, body: unknown, run: () => unknown): Promise<unknown> {
  if (bound.binding !== 'check') return services.sessionRunners[bound.binding](principal, bound.sessionId, body);
  await services.sessionRunners.check(principal, bound.sessionId);
  return run();
}
