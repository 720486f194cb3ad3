/**
 * Embedding the engine in your own Node app: no server, the same operations and the same
 * validation as the HTTP API. Run with `pnpm tsx examples/embed.ts`.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, isWvrError, pricing } from '@wvr/engine';

const engine = createEngine({ dataDir: mkdtempSync(join(tmpdir(), 'wvr-embed-')) });
try {
  const user = engine.accounts.ensureUser({ email: 'app@example.com', plan: 'developer' });
  const principal = engine.accounts.localPrincipal(user);

  // Charge an operation the way the engine's own services do, and read the credits info back.
  const info = engine.credits.charge(user.id, pricing.fullSearch({ rerank_results: true }), 'search');
  console.log('charged:', info);

  // Bad input is refused with the same 400 and code an HTTP caller gets.
  try {
    engine.tokens.create(principal, { name: '', scopes: ['everything'] });
  } catch (e) {
    if (isWvrError(e)) console.log('refused:', e.status, e.code, e.details);
  }
} finally {
  await engine.close();
}
