import { uniqueTerms } from './lexical.js';

/** What can be read off an intent without a model: shared by assessment and planning. */
export interface IntentReading {
  entities: string[];
  topics: string[];
  triggers: string[];
  exclusions: string[];
  sourceTypes: string[];
  numbers: string[];
  domains: string[];
  vagueWords: string[];
}

const TRIGGER_WORDS = ['price', 'pricing', 'release', 'released', 'launch', 'announce', 'announced', 'announcement', 'acquisition', 'acquire', 'funding', 'raise', 'vulnerability', 'cve', 'outage', 'recall', 'lawsuit', 'hire', 'hiring', 'drop', 'increase', 'below', 'above', 'version', 'deprecat', 'changelog', 'breach', 'filing', 'earnings'];
const VAGUE_WORDS = ['anything', 'stuff', 'things', 'everything', 'general', 'whatever', 'interesting', 'info', 'information', 'news', 'updates', 'happening'];
const SOURCE_HINTS: [RegExp, string][] = [
  [/\b(news|press|journalis|headline)/i, 'news'],
  [/\b(blog|changelog|release notes?|docs?|documentation|official)/i, 'official'],
  [/\b(github|repo|commit|pull request)/i, 'code_repository'],
  [/\b(paper|arxiv|study|research|journal)/i, 'academic'],
  [/\b(twitter|reddit|forum|social)/i, 'social'],
  [/\b(sec|filing|regulat|court|legal)/i, 'regulatory'],
  [/\b(price|shop|store|product|catalog)/i, 'ecommerce'],
];
const SENTENCE_STARTERS = new Set(['Monitor', 'Track', 'Watch', 'Tell', 'Alert', 'Notify', 'Find', 'Let', 'I', 'We', 'Any', 'When', 'If', 'The', 'Show', 'Get', 'Keep', 'Follow']);

export function readIntent(intent: string): IntentReading {
  const quoted = [...intent.matchAll(/"([^"]{2,80})"/g)].map((m) => m[1]!);
  // A capital at the start of a sentence says nothing about a name, so that word is dropped.
  const capitalised = [...intent.matchAll(/\b([A-Z][\w.+-]*(?:\s+[A-Z][\w.+-]*)*)/g)]
    .map((m) => {
      const words = m[1]!.split(/\s+/);
      const opensSentence = /^\s*$|[.!?:]\s*$/.test(intent.slice(0, m.index));
      return (opensSentence ? words.slice(1) : words).filter((w) => !SENTENCE_STARTERS.has(w)).join(' ');
    })
    .filter((e) => e.length >= 2);
  const lower = intent.toLowerCase();
  const exclusions = [...intent.matchAll(/\b(?:not|except|excluding|ignore|ignoring|without)\s+([^,.;]{3,60})/gi)].map((m) => m[1]!.trim());
  return {
    entities: [...new Set([...quoted, ...capitalised.filter((e) => !quoted.some((q) => q.includes(e)))])].slice(0, 10),
    topics: uniqueTerms(intent),
    triggers: TRIGGER_WORDS.filter((w) => lower.includes(w)),
    exclusions,
    sourceTypes: SOURCE_HINTS.filter(([re]) => re.test(intent)).map(([, name]) => name),
    numbers: [...intent.matchAll(/\b\d+(?:[.,]\d+)?%?/g)].map((m) => m[0]),
    domains: [...intent.matchAll(/\b(?:https?:\/\/)?([a-z0-9-]+(?:\.[a-z0-9-]+)+)\b/gi)].map((m) => m[1]!).filter((d) => /\.[a-z]{2,}$/i.test(d)),
    vagueWords: [...new Set(VAGUE_WORDS.filter((w) => new RegExp(`\\b${w}\\b`, 'i').test(intent)))],
  };
}
