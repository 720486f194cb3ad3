/**
 * The wvr story on your machine: an engine on a SQLite file, an account with a token, and
 * its credits. Each capability adds its chapter here (crawl, extract, search, monitor).
 */
import { resolve } from 'node:path';
import { createEngine } from '@wvr/engine';

const dataDir = resolve(process.env.WVR_DEMO_DIR ?? '.wvr-demo');
const engine = createEngine({ dataDir, allowPrivateNetwork: true });
const say = (line = '') => console.log(line);

try {
  say(`wvr demo: engine ${engine.version} (API ${engine.apiVersion}) on ${dataDir}/wvr.db`);

  const user = engine.accounts.ensureUser({ email: 'demo@wvr.localhost', name: 'Demo' });
  const created = engine.tokens.issue(user.id, { name: 'demo', scopes: ['search', 'crawl', 'workflow', 'sessions'] });
  say(`1. Account ${user.email} on the ${user.plan} plan, API token ${created.prefix} (scopes: ${created.scopes.join(', ')})`);

  const principal = engine.tokens.authenticate(`Bearer ${created.token}`);
  const credits = engine.credits.summary(principal);
  say(`2. Balance: ${credits.balance} credits (${credits.monthly_grant} a month on ${credits.plan})`);
  say();
  say('Next: `pnpm wvr serve` for the HTTP API, `pnpm wvr --help` for the CLI.');
} finally {
  await engine.close();
}
