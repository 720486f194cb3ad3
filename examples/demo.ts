/**
 * The wvr story on your machine, on the embedded default: an engine on a SQLite file and the
 * local web (deterministic sites on 127.0.0.1). A research session crawls a shop with an intent
 * and an extraction schema, searches what it crawled, asks a question, then a workflow monitors
 * the shop through a change and says what changed. Run: `pnpm demo`.
 */
import { resolve } from 'node:path';
import { createEngine } from '@wvr/engine';
import { startLocalWeb } from '@wvr/testkit';

const dataDir = resolve(process.env.WVR_DEMO_DIR ?? '.wvr-demo');
const web = await startLocalWeb({ seed: 7 });
const engine = createEngine({ dataDir, allowPrivateNetwork: true });
const say = (line = '') => console.log(line);
const clip = (text: string, n = 96) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

try {
  say(`wvr demo: engine ${engine.version} (API ${engine.apiVersion}) on ${dataDir}/wvr.db`);
  say(`The local web: a shop at ${web.catalogue}, news at ${web.news}, docs at ${web.docs}`);
  say();

  const user = await engine.accounts.ensureUser({ email: 'demo@wvr.localhost', name: 'Demo', plan: 'developer' });
  const created = await engine.tokens.issue(user.id, { name: 'demo', scopes: ['search', 'crawl', 'workflow', 'sessions'] });
  const me = await engine.tokens.authenticate(`Bearer ${created.token}`);
  say(`1. Account ${user.email} on the ${user.plan} plan, API token ${created.prefix}… (scopes: ${created.scopes.join(', ')})`);
  say(`   Balance: ${(await engine.credits.summary(me)).balance} credits`);

  const session = await engine.sessions.create(me, {
    name: 'Headphones market scan',
    intent_context: 'Track noise cancelling wireless headphones: models, prices, availability',
    metadata: { intent: { type: 'competitive_analysis' }, tags: ['demo'] },
  });
  say(`2. Research session "${session.name}" (${session.id.slice(0, 8)}), intent type competitive_analysis`);

  const intent = 'noise cancelling wireless headphones';
  const crawl = await engine.sessionRunners.crawl(me, session.id, {
    urls: [`${web.catalogue}/`],
    max_pages: 24,
    expansion: 'internal',
    intent,
    extraction_schema: {
      name: 'The product name as shown on the page',
      price: 'The current price as a number',
      currency: 'The ISO currency code of the price',
      availability: 'Whether the product is in stock',
      brand: 'The brand or manufacturer of the product',
    },
  });
  if ('dry_run' in crawl) throw new Error('a dry run was not asked for');
  await engine.jobs.drain();
  const done = await engine.crawls.get(me, crawl.id);
  const relevant = new Set(web.truth.relevantUrls(web.truth.categoryForIntent(intent)!.slug));
  const products = done.documents.filter((d) => d.extracted_data?.price !== undefined && d.extracted_data?.price !== null);
  const hits = done.documents.filter((d) => relevant.has(d.url)).length;
  say(`3. Smart crawl of the shop for "${intent}": ${done.documents.length} pages, ${hits} of them relevant products`);
  say(`   (${Math.round((hits / done.documents.length) * 100)}% of the budget on target; OPIC + HITS + anchor text, junk URLs dropped before queueing)`);
  for (const d of products.filter((p) => relevant.has(p.url)).slice(0, 3)) {
    const x = d.extracted_data!;
    say(`   - ${x.name} · ${x.brand} · ${x.price} ${x.currency} · ${x.availability}`);
  }
  say(`   Credits: ${done.stats.credits_used} (${done.stats.pricing_tier}: ${done.stats.advanced_features.join(', ')} cost 2 a page)`);

  const found = await engine.sessionRunners.search(me, session.id, { query: 'wireless headphones battery', max_results: 5, rerank_results: true, processing_mode: 'sync' });
  if ('dry_run' in found) throw new Error('a dry run was not asked for');
  say(`4. Search of what the session crawled (local full-text index, novelty reranking): ${found.results.length} results`);
  for (const r of found.results.slice(0, 3)) say(`   - ${clip(r.title, 70)} (${r.relevance_score.toFixed(2)}) ${r.url}`);

  const answer = await engine.sessionRunners.ask(me, session.id, { question: 'Which noise cancelling headphones are in stock, and what do they cost?', depth: 'quick', max_sources: 5 });
  say(`5. Ask: ${clip(answer.answer.replace(/\s+/g, ' '), 220)}`);
  say(`   ${answer.sources.length} sources, every [n] in the answer points at one of them; confidence ${answer.confidence}`);

  const listing = `${web.catalogue}/category/headphones`;
  const { workflow } = await engine.workflows.create(me, {
    name: 'Headphones listing watch',
    workflow_type: 'crawl',
    operation_config: { urls: [listing], max_pages: 1 },
    interval: '1 day',
  });
  const first = (await engine.workflows.execute(me, workflow!.id)).execution!;
  web.setVersion(2);
  const second = (await engine.workflows.execute(me, workflow!.id)).execution!;
  const changes = second.result_changes!;
  say(`6. Monitoring ${listing}: run 1 saw ${first.result_count} page; the shop changed; run 2 found`);
  say(`   ${changes.changed_urls?.length ?? 0} changed page(s), ${changes.net_new_count} new, ${changes.dropped_count} gone (change rate ${changes.change_rate}%)`);
  const diff = changes.page_diffs?.[0]?.diff.split('\n').filter((l) => /^[+-][^+-]/.test(l)).slice(0, 4) ?? [];
  for (const line of diff) say(`   ${clip(line, 100)}`);

  say();
  say(`Balance now: ${(await engine.credits.summary(me)).balance} credits. Timeline of the session: ${(await engine.sessions.timeline(me, session.id)).total} operations.`);
  say('Next: `pnpm wvr serve` for the HTTP API and MCP, `pnpm wvr --help` for the CLI.');
} finally {
  await engine.close();
  await web.close();
}
