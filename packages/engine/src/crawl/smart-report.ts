import { round } from './graph.js';

export interface GraphNode {
  url: string;
  importance: number;
  inlinks: number;
}

/** The final graph, summed up by the caller (the frontier lives in SQLite; the report never holds all of it). */
export interface GraphSummary {
  /** Nodes of the graph: URLs discovered, less covered duplicates and URLs seen before the crawl. */
  nodes: number;
  edges: number;
  fetched: number;
  /** The importance the fetched pages hold together. */
  captured: number;
  /** The most important nodes (at least the top ten, in any order). */
  heaviest: readonly GraphNode[];
  /** Candidates for the hub and authority lists, by URL (every score that can make the top ten). */
  hubs: ReadonlyMap<string, number>;
  authorities: ReadonlyMap<string, number>;
  /** Authority summed per registrable domain over every node. */
  domainAuthority: ReadonlyMap<string, number>;
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
export function smartCrawlReport(graph: GraphSummary): SmartCrawlReport {
  const { nodes: n, edges: edgeCount, fetched, captured } = graph;
  const maxDomain = Math.max(0, ...graph.domainAuthority.values()) || 1;
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
    top_pages: [...graph.heaviest]
      .sort((a, b) => b.importance - a.importance || a.url.localeCompare(b.url))
      .slice(0, TOP)
      .map((node) => ({ url: node.url, importance: round(node.importance, 6), inlinks: node.inlinks })),
    domain_authority: Object.fromEntries([...graph.domainAuthority].sort((a, b) => b[1] - a[1]).map(([d, s]) => [d, round(s / maxDomain)])),
    efficiency: {
      coverage_ratio: n > 0 ? round(fetched / n) : 0,
      importance_captured: round(captured),
      avg_importance_per_page: fetched > 0 ? round(captured / fetched, 6) : 0,
    },
    hubs: top(graph.hubs),
    authorities: top(graph.authorities),
  };
}
