import { round } from './graph.js';
import { domainOf } from './url-rules.js';

export interface GraphNode {
  url: string;
  importance: number;
  inlinks: number;
  fetched: boolean;
}

export interface SmartCrawlReport {
  enabled: boolean;
  algorithm: 'opic';
  stats: { total_nodes: number; total_edges: number; avg_inlinks: number; graph_density: number };
  top_pages: { url: string; importance: number; inlinks: number }[];
  domain_authority: Record<string, number>;
  efficiency: { coverage_ratio: number; importance_captured: number; avg_importance_per_page: number };
  hubs: { url: string; score: number }[];
  authorities: { url: string; score: number }[];
}

const TOP = 10;

/** The job detail's smart_crawl block, from the final graph (formulas in docs/smart-crawl.md). */
export function smartCrawlReport(
  nodes: readonly GraphNode[],
  edgeCount: number,
  hub: ReadonlyMap<string, number>,
  authority: ReadonlyMap<string, number>,
): SmartCrawlReport {
  const n = nodes.length;
  const fetched = nodes.filter((node) => node.fetched);
  const captured = fetched.reduce((s, node) => s + node.importance, 0);
  const domainSums = new Map<string, number>();
  for (const [url, score] of authority) domainSums.set(domainOf(url), (domainSums.get(domainOf(url)) ?? 0) + score);
  const maxDomain = Math.max(0, ...domainSums.values()) || 1;
  const top = (entries: Iterable<[string, number]>) =>
    [...entries]
      .filter(([, score]) => score > 0)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, TOP)
      .map(([url, score]) => ({ url, score: round(score) }));
  return {
    enabled: true,
    algorithm: 'opic',
    stats: {
      total_nodes: n,
      total_edges: edgeCount,
      avg_inlinks: n > 0 ? round(edgeCount / n) : 0,
      graph_density: n > 1 ? round(edgeCount / (n * (n - 1)), 6) : 0,
    },
    top_pages: [...nodes]
      .sort((a, b) => b.importance - a.importance || a.url.localeCompare(b.url))
      .slice(0, TOP)
      .map((node) => ({ url: node.url, importance: round(node.importance, 6), inlinks: node.inlinks })),
    domain_authority: Object.fromEntries([...domainSums].sort((a, b) => b[1] - a[1]).map(([d, s]) => [d, round(s / maxDomain)])),
    efficiency: {
      coverage_ratio: n > 0 ? round(fetched.length / n) : 0,
      importance_captured: round(captured),
      avg_importance_per_page: fetched.length > 0 ? round(captured / fetched.length, 6) : 0,
    },
    hubs: top(hub),
    authorities: top(authority),
  };
}
