import { bm25Scores } from '../text/bm25.js';
import { surfaceForms, terms } from '../text/tokens.js';
import { splitPassages, type Passage } from './passages.js';

export interface AskDocument {
  url: string;
  title: string;
  text: string;
  publishedDate: string | null;
  /** The page's HTML when ask fetched it; pages read from the index have only their text. */
  html?: string;
}

export interface RankedPassage extends Passage {
  score: number;
}

/** Every passage of every page read, scored against the question, best first; irrelevant ones dropped. */
export function rankPassages(question: string, docs: AskDocument[]): { ranked: RankedPassage[]; total: number } {
  const passages = docs.flatMap((d, i) => splitPassages(i, d.text));
  const scores = bm25Scores(terms(question), passages.map((p) => terms(p.text)));
  const ranked = passages
    .map((p, i) => ({ ...p, score: round(scores[i]!) }))
    .filter((p) => p.score > 0)
    .sort((a, b) => b.score - a.score || a.doc - b.doc);
  return { ranked, total: passages.length };
}

/** Pages with at least one relevant passage, best passage first, at most `max`. */
export function relevantDocs(ranked: RankedPassage[], max: number): number[] {
  const order: number[] = [];
  for (const p of ranked) if (!order.includes(p.doc)) order.push(p.doc);
  return order.slice(0, max);
}

/**
 * The extractive answer: the best passages (at most two per page, no near-duplicates), each
 * followed by the marker of its page's position in `docs` + 1.
 */
export function extractiveAnswer(ranked: RankedPassage[], docs: number[], claims: number): string {
  const chosen: RankedPassage[] = [];
  for (const p of ranked) {
    if (chosen.length >= claims) break;
    if (!docs.includes(p.doc)) continue;
    if (chosen.filter((c) => c.doc === p.doc).length >= 2) continue;
    if (chosen.some((c) => overlap(c.text, p.text) > 0.8)) continue;
    chosen.push(p);
  }
  return chosen.map((p) => cite(p.text, docs.indexOf(p.doc) + 1)).join(' ');
}

const MARKER = /\[(\d+(?:\s*,\s*\d+)*)\]/g;

/** Citation numbers in order of first appearance; `[1, 2]` counts as [1][2]. */
export function citedNumbers(answer: string): number[] {
  const seen: number[] = [];
  for (const m of answer.matchAll(MARKER)) {
    for (const n of m[1]!.split(',').map((s) => Number(s.trim()))) if (!seen.includes(n)) seen.push(n);
  }
  return seen;
}

/** True when the answer cites something and every marker names one of `count` sources. */
export function citationsValid(answer: string, count: number): boolean {
  const cited = citedNumbers(answer);
  return cited.length > 0 && cited.every((n) => Number.isInteger(n) && n >= 1 && n <= count);
}

/**
 * Renumbers sources so cited ones come first, in order of first citation, and rewrites the
 * markers to match. `order[i]` is the old number (1-based) of the source now at position i.
 */
export function citedFirst(answer: string, count: number): { answer: string; order: number[] } {
  const cited = citedNumbers(answer).filter((n) => n >= 1 && n <= count);
  const order = [...cited, ...Array.from({ length: count }, (_, i) => i + 1).filter((n) => !cited.includes(n))];
  const rewritten = answer.replace(MARKER, (_, list: string) =>
    list
      .split(',')
      .map((s) => `[${order.indexOf(Number(s.trim())) + 1}]`)
      .join(''),
  );
  return { answer: rewritten, order };
}

/**
 * How well the cited passages support the answer: the share of the question's terms they
 * contain (half the weight), how many pages agree (a quarter; two or more count fully) and the
 * best passage's strength, score / (score + 5) (a quarter).
 */
export function confidenceOf(question: string, cited: RankedPassage[]): number {
  if (cited.length === 0) return 0;
  const wanted = new Set(terms(question));
  const found = new Set(cited.flatMap((p) => terms(p.text)));
  const coverage = wanted.size === 0 ? 0 : [...wanted].filter((t) => found.has(t)).length / wanted.size;
  const agreement = Math.min(1, new Set(cited.map((p) => p.doc)).size / 2);
  const best = Math.max(...cited.map((p) => p.score));
  return round(0.5 * coverage + 0.25 * agreement + 0.25 * (best / (best + 5)));
}

/** Words the best passages stress that the question does not mention, weighted by passage score, as the passages write them. */
export function salientTerms(question: string, ranked: RankedPassage[], count: number): string[] {
  const asked = new Set(terms(question));
  const weight = new Map<string, number>();
  const best = ranked.slice(0, 10);
  const forms = surfaceForms(best.map((p) => p.text));
  for (const p of best) {
    for (const t of new Set(terms(p.text))) {
      if (asked.has(t) || t.length < 4 || /^\d+$/.test(t)) continue;
      weight.set(t, (weight.get(t) ?? 0) + p.score);
    }
  }
  return [...weight.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, count)
    .map(([t]) => forms.get(t) ?? t);
}

export function followUpQuestions(question: string, ranked: RankedPassage[]): string[] {
  const asked = surfaceForms([question]);
  const key = terms(question).sort((a, b) => b.length - a.length)[0];
  const subject = key ? (asked.get(key) ?? key) : 'this';
  const [first, second, third] = salientTerms(question, ranked, 3);
  return [
    first && `How does ${first} relate to ${subject}?`,
    second && `What is known about ${second}?`,
    third && `What are the latest developments on ${third}?`,
  ].filter((q): q is string => Boolean(q));
}

function overlap(a: string, b: string): number {
  const x = new Set(terms(a));
  const y = new Set(terms(b));
  const shared = [...x].filter((t) => y.has(t)).length;
  return shared / Math.max(1, Math.min(x.size, y.size));
}

/** The marker goes before the closing punctuation: "… in May [2]." */
function cite(text: string, n: number): string {
  const stop = /[.!?]$/.exec(text)?.[0] ?? '.';
  return `${text.replace(/[.!?]$/, '')} [${n}]${stop}`;
}
const round = (n: number) => Math.round(n * 1000) / 1000;
