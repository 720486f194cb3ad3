import { z } from 'zod';
import { errors } from '../core/errors.js';
import { PlanPreset, WorkflowStep, type PlanBody } from './schemas.js';
import { readIntent } from './intent-reading.js';
import { contentWords, coverage, terms } from './lexical.js';
import { stepCost, type Step } from './pricing.js';

export const PlanningProfile = z.enum(['precision_linear', 'dual_lane_hybrid', 'fork_join_dag']);

export const WorkflowPlan = z
  .object({
    intent: z.string(),
    name: z.string(),
    planning_profile: PlanningProfile,
    topology_reason: z.string(),
    planning_quality_score: z.number().min(0).max(1),
    coverage_score: z.number().min(0).max(1),
    depth_score: z.number().min(0).max(1),
    coverage_gaps: z.array(z.string()),
    recommended_steps: z.array(WorkflowStep),
    estimated_credits_per_execution: z.number(),
    preset: PlanPreset,
    credits_consumed: z.number().int(),
  })
  .meta({ id: 'WorkflowPlan' });
export type WorkflowPlan = z.infer<typeof WorkflowPlan>;

export type PlanInput = z.output<typeof PlanBody>;

export function presetOf(input: Pick<PlanInput, 'preset' | 'quality_mode'>): z.output<typeof PlanPreset> {
  return input.preset ?? (input.quality_mode === 'balanced' ? 'quick' : 'standard');
}

type Preset = z.output<typeof PlanPreset>;

/**
 * What each preset buys: a larger preset plans more, so its higher preview price pays for more
 * queries (entities searched, source lanes), more results per query, a crawl of what was found
 * (depth) and longer queries (coverage of the intent's words).
 */
export const PRESET_PROFILES: Record<Preset, { entities: number; lanes: number; maxResults: number; queryWords: number; crawlPages: number }> = {
  quick: { entities: 2, lanes: 1, maxResults: 5, queryWords: 5, crawlPages: 0 },
  standard: { entities: 4, lanes: 2, maxResults: 10, queryWords: 8, crawlPages: 0 },
  thorough: { entities: 6, lanes: 3, maxResults: 15, queryWords: 12, crawlPages: 5 },
  comprehensive: { entities: 8, lanes: 4, maxResults: 20, queryWords: 16, crawlPages: 10 },
};

/** What a lane adds to a query to reach a kind of source; the first lane is the plain query. */
const LANE_WORDS: Record<string, string> = {
  news: 'news',
  official: 'official announcement',
  academic: 'research paper',
  code_repository: 'github repository',
  regulatory: 'regulatory filing',
  social: 'forum discussion',
  ecommerce: 'price',
};

/**
 * The heuristic planner. Several named entities fork one search per entity and join them;
 * an intent that wants both fresh news and primary sources runs lanes per source kind;
 * otherwise one precise search. Queries are phrases of the intent's own words. The preset
 * sets how much is planned (PRESET_PROFILES). Steps that would push an execution past the
 * budget are dropped (the crawl first, then searches), and a budget too small for one search
 * is refused.
 */
export function planWorkflow(input: PlanInput, creditsConsumed: number): WorkflowPlan {
  const r = readIntent(input.intent);
  const preset = presetOf(input);
  const profile = PRESET_PROFILES[preset];
  const budget = input.planning_budget ?? input.max_credits_per_execution ?? Number.POSITIVE_INFINITY;
  const entities = input.skip_entity_discovery ? [] : r.entities.slice(0, profile.entities);
  const entityWords = new Set(entities.flatMap((e) => terms(e)));
  // The subject: the intent's words other than the entities', as written, in the intent's order.
  const subject = contentWords(input.intent)
    .filter((w) => terms(w).every((t) => !entityWords.has(t)))
    .slice(0, profile.queryWords)
    .join(' ');
  const focus = [entities.join(' '), subject].filter(Boolean).join(' ') || input.intent.slice(0, 200);
  // A lane whose words the query already has reaches nothing new ("price" on a price intent).
  const focusTerms = new Set(terms(focus));
  const lanes = [...new Set(['', ...r.sourceTypes.map((t) => LANE_WORDS[t]!), LANE_WORDS.news!, LANE_WORDS.official!, LANE_WORDS.social!, LANE_WORDS.academic!])]
    .filter((lane) => lane === '' || terms(lane).some((t) => !focusTerms.has(t)))
    .slice(0, profile.lanes);
  const search = (id: string, query: string): Step => ({
    id,
    type: 'search',
    output_key: id,
    config: { query: query.trim().slice(0, 1000), max_results: profile.maxResults, query_decomposition: false },
  });
  const join = (deps: string[]): Step => ({ id: 'combine', type: 'aggregate', output_key: 'combine', depends_on: deps, config: { aggregation_type: 'deduplicate', format: 'json' } });

  let planning: z.output<typeof PlanningProfile>;
  let reason: string;
  let searches: Step[];
  const laneSearches = (from: number) => lanes.slice(from).map((lane) => search(`${lane.split(' ')[0]}_lane`, `${focus} ${lane}`));
  if (entities.length >= 2) {
    planning = 'fork_join_dag';
    reason = `The intent names ${entities.length} entities (${entities.join(', ')}); one search per entity runs in parallel${lanes.length > 1 ? ', source lanes widen the net,' : ''} and a deduplicating join merges them.`;
    searches = [...entities.map((e, i) => search(`entity_${i + 1}`, `${e} ${subject}`)), ...laneSearches(1)];
  } else if (lanes.length >= 2 && (input.quality_mode === 'quality_first' || preset !== 'quick') && (r.sourceTypes.length >= 2 || r.triggers.length > 0 || lanes.length >= 3)) {
    planning = 'dual_lane_hybrid';
    reason = `The intent asks for events that show up in more than one kind of source; ${lanes.length} lanes (${lanes.map((l) => l || 'the plain query').join(', ')}) run side by side and are merged.`;
    searches = [search('primary', focus), ...laneSearches(1)];
  } else {
    planning = 'precision_linear';
    reason = 'One subject and no competing source kinds: a single precise search is enough.';
    searches = [search('primary', focus)];
  }
  const read = (from: string): Step => ({ id: 'read_sources', type: 'crawl', depends_on: [from], config: { urls: [`{{${from}}}`], max_pages: profile.crawlPages } });
  const assemble = (list: Step[], withCrawl: boolean): Step[] => {
    const head = list.length > 1 ? [...list, join(list.map((s) => s.id))] : list;
    return withCrawl && profile.crawlPages > 0 ? [...head, read(head.at(-1)!.output_key ?? head.at(-1)!.id)] : head;
  };
  let crawl = true;
  if (total(assemble(searches, crawl)) > budget) crawl = false;
  while (searches.length > 1 && total(assemble(searches, crawl)) > budget) searches.pop();
  if (total(searches) > budget) {
    throw errors.validation('planning_budget_too_small', `A budget of ${budget} credits cannot pay for one search (1 credit) per execution.`, {
      details: { budget },
      suggestions: ['Raise max_credits_per_execution (or planning_budget) to at least 1.'],
    });
  }
  const steps = assemble(searches, crawl);
  const queries = searches.map((s) => (s.type === 'search' ? s.config.query : '')).join(' ');
  const cover = coverage(r.topics, queries);
  const crawled = steps.some((s) => s.type === 'crawl') ? profile.crawlPages : 0;
  const depth = Math.min(1, searches.length / 10 + profile.maxResults / 50 + crawled / 25);
  const gaps = [
    ...cover.missing.map((t) => `"${t}" is not searched for`),
    ...(r.triggers.length === 0 ? ['no trigger event: every change will be reported'] : []),
    ...(r.sourceTypes.length === 0 ? ['no source type named: the web at large is searched'] : []),
  ];
  // Words of the intent searched for, and how many kinds of source the lanes reach.
  const laneCount = new Set(searches.map((s) => s.id.endsWith('_lane') ? s.id : '')).size;
  const coverageScore = r.topics.length === 0 ? 0 : round2(0.8 * cover.score + 0.2 * Math.min(1, laneCount / PRESET_PROFILES.comprehensive.lanes));
  return {
    intent: input.intent,
    name: input.name ?? `Monitor: ${input.intent.slice(0, 60)}`,
    planning_profile: planning,
    topology_reason: reason,
    planning_quality_score: round2((coverageScore + depth + (gaps.length === 0 ? 1 : 0.5)) / 3),
    coverage_score: coverageScore,
    depth_score: round2(depth),
    coverage_gaps: gaps,
    recommended_steps: steps,
    estimated_credits_per_execution: total(steps),
    preset,
    credits_consumed: creditsConsumed,
  };
}

const total = (steps: Step[]) => steps.reduce((s, step) => s + stepCost(step), 0);
const round2 = (n: number) => Math.round(n * 100) / 100;
