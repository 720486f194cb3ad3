import { urlKey, type ResultChanges, type ResultItem } from './changes.js';
import { coverage, uniqueTerms } from './lexical.js';

export type Relevance = 'NEW' | 'CONTEXT' | 'UPDATE' | 'IRRELEVANT';

export interface IntentSource {
  intent: string | null;
  description: string | null;
  operationQuery: string | null;
  name: string;
}

export interface MonitoringIntent {
  text: string;
  source: 'intent' | 'description' | 'operation_config.query' | 'name';
  /** The name says too little to judge relevance, so nothing is filtered. */
  filtering: boolean;
}

export interface IntentRelevanceFilter {
  filtered_count: number;
  filtered_items: { url: string; title: string; reason: string }[];
  monitoring_intent_used: string;
  monitoring_intent_source: MonitoringIntent['source'];
  filtering_enabled: boolean;
  classifications: { url: string; relevance: Relevance }[];
  /** True when there were changes and every one was irrelevant: signals are not delivered. */
  signal_suppressed: boolean;
}

export function monitoringIntent(s: IntentSource): MonitoringIntent {
  const candidates: [string | null, MonitoringIntent['source']][] = [
    [s.intent, 'intent'],
    [s.description, 'description'],
    [s.operationQuery, 'operation_config.query'],
  ];
  for (const [text, source] of candidates) {
    if (text && text.trim()) return { text: text.trim(), source, filtering: true };
  }
  return { text: s.name, source: 'name', filtering: false };
}

/** A result relates to the intent when it shares at least this share of the intent's content words. */
const RELEVANCE_FLOOR = 0.2;

/**
 * NEW: a relevant URL not seen in the previous execution; UPDATE: a relevant, previously
 * reported URL whose page changed; CONTEXT: a relevant URL seen before, unchanged;
 * IRRELEVANT: shares too little with the intent (filtered out of the signal).
 */
export function classifyResults(intent: MonitoringIntent, results: ResultItem[], changes: ResultChanges): IntentRelevanceFilter {
  const fresh = new Set(changes.net_new_urls.map((u) => urlKey(u.url)));
  const changed = new Set((changes.changed_urls ?? []).map(urlKey));
  const wanted = uniqueTerms(intent.text);
  const classifications: { url: string; relevance: Relevance }[] = [];
  const filtered: IntentRelevanceFilter['filtered_items'] = [];
  for (const r of results) {
    const key = urlKey(r.url);
    const match = coverage(wanted, `${r.title} ${r.description} ${r.url} ${r.text ?? ''}`);
    if (intent.filtering && wanted.length > 0 && match.score < RELEVANCE_FLOOR) {
      classifications.push({ url: r.url, relevance: 'IRRELEVANT' });
      filtered.push({ url: r.url, title: r.title, reason: `shares ${match.found.length} of ${wanted.length} intent terms (${wanted.slice(0, 6).join(', ')})` });
      continue;
    }
    const relevance: Relevance = fresh.has(key) ? 'NEW' : changed.has(key) ? 'UPDATE' : 'CONTEXT';
    classifications.push({ url: r.url, relevance });
  }
  const changeKeys = new Set([...fresh, ...changed]);
  const changeClasses = classifications.filter((c) => changeKeys.has(urlKey(c.url)));
  return {
    filtered_count: filtered.length,
    filtered_items: filtered,
    monitoring_intent_used: intent.text,
    monitoring_intent_source: intent.source,
    filtering_enabled: intent.filtering,
    classifications,
    signal_suppressed: changeClasses.length > 0 && changeClasses.every((c) => c.relevance === 'IRRELEVANT'),
  };
}
