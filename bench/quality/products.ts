/**
 * bench/quality/products: product-field extraction on real pages nobody here wrote, scored by the
 * dataset's own scorer (score_products.py), overall and per source; and the engine's price parser
 * on the dataset's price strings.
 *
 *   npx tsx bench/quality/products.ts <datasets>/products                  # product pages
 *   npx tsx bench/quality/products.ts <datasets>/products --price-strings  # price strings
 *
 * Pages go through the same path as `POST /v1/crawls/preview-extraction` with no model configured:
 * a real engine on a temp SQLite file fetches each page over HTTP from a loopback server that
 * answers with the page's original bytes and a bare `text/html` (no charset), so the engine's own
 * charset detection decodes them. Nothing from the dataset is written outside bench/.results/.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createEngine, parsePrice } from '@wvr/engine';
import { machine, resultsDir, writeResult } from '../lib/results.js';

/** The schema of issue 12: the fields a shopping extractor is judged on. */
export const PRODUCT_SCHEMA = {
  name: 'the name of the main product',
  price: 'the current selling price of the main product, as a number',
  currency: 'the currency of the price, as an ISO 4217 code',
  availability: 'whether the main product is in stock or out of stock',
  sku: 'the SKU or product identifier code of the main product',
  brand: 'the brand of the main product',
};

const args = process.argv.slice(2);
const folder = args.find((a) => !a.startsWith('--'));
if (!folder) {
  console.error('usage: npx tsx bench/quality/products.ts <datasets>/products [--price-strings] [--only=id,id]');
  process.exit(2);
}
const dir = resolve(folder);
const scorer = join(dirname(dir), 'score_products.py');
const only = args.find((a) => a.startsWith('--only='))?.slice(7).split(',');

if (args.includes('--price-strings')) await priceStrings();
else await pages();

async function priceStrings(): Promise<void> {
  const rows = readJsonl(join(dir, 'price-strings.jsonl')) as { id: string; text: string | null; currency_hint: string | null }[];
  const preds: Record<string, { amount: string | null; currency: string | null }> = {};
  for (const row of rows) {
    const parsed = parsePrice(row.text ?? "", row.currency_hint);
    preds[row.id] = { amount: parsed.amountText, currency: parsed.currency };
  }
  const file = join(resultsDir, 'quality-price-strings-predictions-latest.json');
  writeResult('quality-price-strings-predictions', preds);
  const report = score([file, '--price-strings', '--truth', join(dir, 'price-strings.jsonl')]);
  console.log(report);
  writeResult('quality-price-strings', { machine: machine(), report });
}

async function pages(): Promise<void> {
  type Truth = { id: string; source: string; url: string | null };
  const truth = (readJsonl(join(dir, 'truth.jsonl')) as Truth[]).filter((t) => !only || only.includes(t.id));
  const server = createServer((req, res) => {
    const id = decodeURIComponent((req.url ?? '/').slice(1).split('/')[0] ?? '');
    try {
      const bytes = gunzipSync(readFileSync(join(dir, 'html', `${id}.html.gz`)));
      res.writeHead(200, { 'content-type': 'text/html', connection: 'close' }).end(bytes);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const tmp = mkdtempSync(join(tmpdir(), 'wvr-quality-'));
  const engine = createEngine({ dbPath: join(tmp, 'wvr.db'), allowPrivateNetwork: true, ai: { provider: 'heuristic' }, secret: 'bench' });
  const user = await engine.accounts.ensureUser({ email: 'quality@bench.test' });
  await engine.credits.grant(user.id, truth.length + 10);
  const principal = engine.accounts.localPrincipal(user);

  const preds: Record<string, Record<string, unknown>> = {};
  const started = performance.now();
  for (const t of truth) {
    // The page's own path keeps URL rules (an id or "/p/" in the path) working as on the real site.
    const path = t.url ? new URL(t.url).pathname + new URL(t.url).search : '/';
    const url = `${base}/${encodeURIComponent(t.id)}${path}`;
    try {
      const preview = await engine.extraction.preview(principal, { url, extraction_schema: PRODUCT_SCHEMA });
      preds[t.id] = prediction(preview.extracted_data);
    } catch (error) {
      console.error(`${t.id}: ${(error as Error).message}`);
      preds[t.id] = {};
    }
  }
  const seconds = (performance.now() - started) / 1000;
  await engine.close();
  server.close();
  rmSync(tmp, { recursive: true, force: true });

  writeResult('quality-products-predictions', preds);
  const predFile = join(resultsDir, 'quality-products-predictions-latest.json');
  const reports: Record<string, string> = { all: score([predFile, '--truth', join(dir, 'truth.jsonl')]) };
  const all = readJsonl(join(dir, 'truth.jsonl')) as Truth[];
  const sources = [...new Set(all.map((t) => t.source.split('/')[0]!))];
  for (const source of sources) {
    const subset = join(resultsDir, `quality-products-truth-${source}.jsonl`);
    writeFileSync(subset, all.filter((t) => t.source.startsWith(source)).map((t) => JSON.stringify(t)).join('\n') + '\n');
    reports[source] = score([predFile, '--truth', subset]);
  }
  for (const [name, report] of Object.entries(reports)) console.log(`\n== ${name}\n${report}`);
  console.log(`\n${truth.length} pages in ${seconds.toFixed(1)} s; load average ${machine().loadAverage1m}`);
  writeResult('quality-products', { machine: machine(), pages: truth.length, seconds, reports });
}

/** The scorer's shape: availability as a schema.org term (a yes/no answer reads as in or out of stock). */
function prediction(data: Record<string, unknown>): Record<string, unknown> {
  const availability = data.availability === true ? 'InStock' : data.availability === false ? 'OutOfStock' : data.availability;
  return { ...data, availability, price: typeof data.price === 'number' ? String(data.price) : data.price };
}

function score(argv: string[]): string {
  const run = spawnSync('python3', [scorer, ...argv], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`scorer failed: ${run.stderr}`);
  return run.stdout.trim();
}

function readJsonl(file: string): unknown[] {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
}
