import type { WorkflowExecution } from '../workflows/responses.js';
import { analyse } from '../sessions/context.js';
import { suggestQueries } from '../search/suggestions.js';
import { domainOf, queryTerms } from '../search/text.js';
import { words } from '../text/tokens.js';
import type { MonitorRecommendations } from './schemas.js';

const MAX_QUERIES = 6;
const MAX_DOMAINS = 5;
const MAX_URLS = 5;
const MAX_ENTITIES = 8;
/** A query term found in fewer results than this share is a gap worth its own query. */
const GAP_SHARE = 0.2;

interface Result {
  url: string;
  title: string;
  description: string;
  published_date: string | null;
}

/**
 * Where a monitor should look next, from what it has found: the entities its results keep
 * naming, the domains they come from (and which are new), pages that recently appeared, and the
 * parts of its query that few results speak to. Reports are newest first.
 */
export function recommend(query: string, reports: WorkflowExecution[]): Omit<MonitorRecommendations, 'workflow_id'> {
  const results = uniqueResults(reports);
  const asked = new Set(queryTerms(query));
  const corpus = results.map((r) => `${r.title}. ${r.description}`).join('\n');

  const entityCounts = new Map<string, number>();
  for (const entity of analyse(corpus).entities) {
    if (words(entity).every((w) => asked.has(w))) continue;
    entityCounts.set(entity, (entityCounts.get(entity) ?? 0) + 1);
  }
  const entities = [...entityCounts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, MAX_ENTITIES)
    .map(([entity, mentions]) => ({ entity, mentions }));

  const queries = dedupe([
    ...entities.slice(0, 3).map((e) => ({ query: `${e.entity} ${query}`.trim(), reason: `“${e.entity}” is named in ${e.mentions} result${e.mentions === 1 ? '' : 's'}` })),
    ...suggestQueries(query, results).map((q) => ({ query: q, reason: 'a term several results share that the query does not use' })),
  ]).slice(0, MAX_QUERIES);

  const latest = reports[0] ? resultsOf(reports[0]) : [];
  const earlierDomains = new Set(reports.slice(1).flatMap(resultsOf).map((r) => domainOf(r.url)));
  const domainCounts = new Map<string, number>();
  for (const r of results) domainCounts.set(domainOf(r.url), (domainCounts.get(domainOf(r.url)) ?? 0) + 1);
  domainCounts.delete('');
  const domains = [...domainCounts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, MAX_DOMAINS)
    .map(([domain, count]) => {
      const isNew = reports.length > 1 && !earlierDomains.has(domain) && latest.some((r) => domainOf(r.url) === domain);
      return {
        domain,
        results: count,
        new: isNew,
        reason: isNew ? 'first seen in the latest report' : `${count} result${count === 1 ? '' : 's'} come from it: crawl it directly to see changes sooner`,
      };
    });

  const urls = reports
    .flatMap((r) => r.result_changes?.net_new_urls ?? [])
    .filter((u, i, all) => all.findIndex((o) => o.url === u.url) === i)
    .slice(0, MAX_URLS)
    .map((u) => ({ url: u.url, title: u.title || null, reason: 'appeared recently: crawl it to follow how it changes' }));

  return { based_on_reports: reports.length, based_on_results: results.length, queries, urls, domains, entities, gaps: gapsOf(asked, results) };
}

function gapsOf(asked: Set<string>, results: Result[]): string[] {
  if (results.length === 0) return ['No results yet: run the monitor, or broaden its query.'];
  const gaps: string[] = [];
  for (const term of asked) {
    const share = results.filter((r) => words(`${r.title} ${r.description}`).includes(term)).length / results.length;
    if (share < GAP_SHARE) gaps.push(`Few results (${Math.round(share * 100)}%) mention “${term}”: add a query focused on it.`);
  }
  if (results.every((r) => r.published_date === null)) gaps.push('No result carries a publication date: add a news source type to see what is recent.');
  return gaps;
}

const resultsOf = (report: WorkflowExecution): Result[] =>
  (report.results ?? []).map((r) => ({ url: r.url, title: r.title, description: r.description, published_date: r.published_date }));

function uniqueResults(reports: WorkflowExecution[]): Result[] {
  const byUrl = new Map<string, Result>();
  for (const r of reports.flatMap(resultsOf)) if (!byUrl.has(r.url)) byUrl.set(r.url, r);
  return [...byUrl.values()];
}

function dedupe<T extends { query: string }>(items: T[]): T[] {
  const seen = new Set<string>();
  return items.filter((i) => {
    const key = i.query.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
