/**
 * Scripting a wvr server with the SDK: starts a server on a free port over a temporary
 * engine, then talks to it only through `@wvr/sdk`. Run with `pnpm tsx examples/sdk.ts`.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '@wvr/engine';
import { startServer } from '@wvr/server';
import { createClient, WvrApiError } from '@wvr/sdk';

const engine = createEngine({ dataDir: mkdtempSync(join(tmpdir(), 'wvr-sdk-example-')) });
const server = await startServer({ engine, port: 0 });
try {
  const owner = await engine.accounts.ensureUser({ email: 'scripts@example.com' });
  const { token } = await engine.tokens.issue(owner.id, { name: 'example' });

  const wvr = createClient({ baseUrl: server.url, token });
  console.log('health:', await wvr.health());
  console.log('credits:', (await wvr.credits.get()).balance);

  const ci = await wvr.tokens.create({ name: 'ci', scopes: ['search'], expires_in_days: 90 });
  console.log('new token for CI:', ci.prefix, ci.scopes);

  await wvr.tokens.create({ name: 'x'.repeat(500) }).catch((e: unknown) => {
    if (e instanceof WvrApiError) console.log('refused:', e.status, e.code);
  });
} finally {
  await server.close();
  await engine.close();
}
