import { errors } from '../core/errors.js';
import type { Principal, Scope } from './schemas.js';

export function requireScope(principal: Principal, scope: Scope): void {
  if (principal.scopes.includes(scope)) return;
  throw errors.forbidden('scope_missing', `This token lacks the "${scope}" scope.`, {
    details: { required_scope: scope, token_scopes: principal.scopes },
    suggestions: [`Create a token with the "${scope}" scope (POST /v1/tokens or \`wvr tokens create --scopes ${scope}\`).`],
  });
}
