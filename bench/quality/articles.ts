/**
 * bench/quality/articles: main-text quality on real article pages, wvr's reader next to
 * @mozilla/readability (on a linkedom DOM) in the same process, scored by the dataset's own scorer.
 *
 *   npx tsx bench/quality/articles.ts <articles-folder> [--source NAME] [--limit N] [--only wvr|readability] [--per-page]
 *
 * The folder holds `truth.jsonl` and `html/<id>.html.gz` (original bytes); its parent holds
 * `score_articles.py`. Each page is decoded with the engine's own charset detection (the bytes,
 * no Content-Type header, as a crawl that got none would), then read by `parseHtml` (its `text` is
 * what a crawl stores as `documents[].text`) and by Readability (`textContent`). Predictions go to
 * `bench/.results/quality-articles-<contender>.json`; the python scorer runs on each and the
 * per-source figures are printed side by side. Nothing from the dataset is kept elsewhere.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { decodeText, parseHtml } from '@wvr/engine';
import { machine, resultsDir, writeResult } from '../lib/results.js';

const args = process.argv.slice(2);
const folder = args[0]?.startsWith('--') ? undefined : args[0];
if (!folder) {
  console.error('usage: npx tsx bench/quality/articles.ts <articles-folder> [--source NAME] [--limit N] [--only wvr|readability] [--per-page]');
  process.exit(2);
}
const option = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const onlySource = option('source');
const limit = Number(option('limit') ?? Infinity);
const perPage = args.includes('--per-page');
const only = option('only')?.split(',');
const dir = resolve(folder);
const scorer = join(dirname(dir), 'score_articles.py');
if (!existsSync(join(dir, 'truth.jsonl')) || !existsSync(scorer)) {
  console.error(`${dir} must hold truth.jsonl and html/, and its parent score_articles.py`);
  process.exit(2);
}

interface Truth {
  id: string;
  url: string | null;
  source: string;
}
const truth: Truth[] = readFileSync(join(dir, 'truth.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as Truth)
  .filter((t) => !onlySource || t.source === onlySource)
  .slice(0, limit);

const pages = truth.map((t) => {
  const bytes = gunzipSync(readFileSync(join(dir, 'html', `${t.id}.html.gz`)));
  return { ...t, html: decodeText(bytes, '', true).text, bytes: bytes.length };
});

const contenders: { name: string; read(html: string, url: string): string }[] = [
  { name: 'wvr', read: (html, url) => parseHtml(html, url).text },
  {
    name: 'readability',
    read: (html) => {
      const { document } = parseHTML(html);
      return new Readability(document as unknown as ConstructorParameters<typeof Readability>[0]).parse()?.textContent ?? '';
    },
  },
];

mkdirSync(resultsDir, { recursive: true });
const runs = contenders.filter((c) => !only || only.includes(c.name)).map((c) => {
  const predictions: Record<string, string> = {};
  let failures = 0;
  const start = performance.now();
  for (const p of pages) {
    try {
      predictions[p.id] = c.read(p.html, p.url ?? `https://${p.source}.example/${p.id}`);
    } catch {
      failures++;
      predictions[p.id] = '';
    }
  }
  const ms = performance.now() - start;
  const score = (name: string, subset: Record<string, string>, pageScores?: string) => {
    const file = join(resultsDir, `quality-articles-${name}.json`);
    writeFileSync(file, JSON.stringify(subset));
    const scorerArgs = [scorer, file, '--truth', join(dir, 'truth.jsonl'), ...(onlySource ? ['--source', onlySource] : []), '--only-predicted'];
    if (pageScores) scorerArgs.push('--per-page', pageScores);
    const report = execFileSync('python3', scorerArgs, { encoding: 'utf8' });
    return { report, scores: parseReport(report) };
  };
  const { report, scores } = score(c.name, predictions, perPage ? join(resultsDir, `quality-articles-${c.name}-pages.jsonl`) : undefined);
  // The halves: rules are tuned on the development half and checked on the other, which tuning never looks at.
  const halves = Object.fromEntries(
    (['dev', 'check'] as const).map((half) => {
      const subset = Object.fromEntries(Object.entries(predictions).filter(([id]) => halfOf(id) === half));
      return [half, score(`${c.name}-${half}`, subset).scores];
    }),
  );
  return { name: c.name, ms, failures, report, scores, halves };
});

/** Half of the dataset a page belongs to, fixed by a hash of its id so every run splits the same way. */
function halfOf(id: string): 'dev' | 'check' {
  return createHash('sha1').update(id).digest()[0]! % 2 === 0 ? 'dev' : 'check';
}

/** The scorer's lines: `<source> n=… P=… R=… F1=…` (body) and `<source> snippets=… P=… R=… F1=…`. */
function parseReport(report: string): Record<string, { n: number; p: number; r: number; f1: number }> {
  const scores: Record<string, { n: number; p: number; r: number; f1: number }> = {};
  for (const m of report.matchAll(/^(\S.*?)\s+(?:n|snippets)=\s*(\d+)\s+P=([\d.]+) R=([\d.]+) F1=([\d.]+)/gm)) {
    scores[m[1]!.trim()] = { n: Number(m[2]), p: Number(m[3]), r: Number(m[4]), f1: Number(m[5]) };
  }
  return scores;
}

const sources = Object.keys(runs[0]!.scores);
const cell = (s?: { p: number; r: number; f1: number }) => (s ? `${s.p.toFixed(3)} ${s.r.toFixed(3)} ${s.f1.toFixed(3)}` : '-');
console.log(`${'source'.padEnd(28)} ${'n'.padStart(4)}  ${runs.map((r) => `${r.name} P R F1`.padEnd(24)).join('')}`);
const row = (label: string, pick: (r: (typeof runs)[number]) => { n: number; p: number; r: number; f1: number } | undefined) => {
  const n = pick(runs[0]!)?.n;
  if (n !== undefined) console.log(`${label.padEnd(28)} ${String(n).padStart(4)}  ${runs.map((r) => cell(pick(r)).padEnd(24)).join('')}`);
};
for (const s of sources) row(s, (r) => r.scores[s]);
for (const half of ['dev', 'check'] as const) for (const s of sources) row(`${half} half: ${s}`, (r) => r.halves[half]?.[s]);
const mb = pages.reduce((sum, p) => sum + p.bytes, 0) / 1024 / 1024;
for (const r of runs) {
  console.log(`${r.name}: ${pages.length} pages (${mb.toFixed(1)} MB) in ${(r.ms / 1000).toFixed(2)} s, ${Math.round((pages.length / r.ms) * 1000)} pages/s, ${r.failures} failures`);
}
const m = machine();
console.log(`load average ${m.loadAverage1m}, ${m.cpus} cpus, node ${m.node}`);
console.log(`wrote ${writeResult('quality-articles', { machine: m, pages: pages.length, runs: runs.map(({ report: _, ...r }) => r) })}`);
