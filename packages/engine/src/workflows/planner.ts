import { z } from 'zod';
import { errors } from '../core/errors.js';
import { PlanPreset, WorkflowStep, type PlanBody } from './schemas.js';
import { readIntent } from './intent-reading.js';
import { coverage } from './lexical.js';
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

/**
 * The heuristic planner. Several named entities fork one search per entity and join them;
 * an intent that wants both fresh news and primary sources runs two lanes; otherwise one
 * precise search. Steps that would push an execution past the budget are dropped, and a
 * budget too small for one search is refused.
 */
export function planWorkflow(input: PlanInput, creditsConsumed: number): WorkflowPlan {
  const r = readIntent(input.intent);
  const budget = input.planning_budget ?? input.max_credits_per_execution ?? Number.POSITIVE_INFINITY;
  const focus = r.topics.slice(0, 6).join(' ') || input.intent.slice(0, 200);
  const entities = input.skip_entity_discovery ? [] : r.entities.slice(0, 4);
  const maxResults = input.quality_mode === 'quality_first' ? 10 : 5;
  const search = (id: string, query: string): Step => ({ id, type: 'search', output_key: id, config: { query: query.slice(0, 1000), max_results: maxResults, query_decomposition: false } });
  const join = (deps: string[]): Step => ({ id: 'combine', type: 'aggregate', depends_on: deps, config: { aggregation_type: 'deduplicate', format: 'json' } });

  let profile: z.output<typeof PlanningProfile>;
  let reason: string;
  let searches: Step[];
  if (entities.length >= 2) {
    profile = 'fork_join_dag';
    reason = `The intent names ${entities.length} entities (${entities.join(', ')}); one search per entity runs in parallel and a deduplicating join merges them.`;
    searches = entities.map((e, i) => search(`entity_${i + 1}`, `${e} ${focus}`));
  } else if (input.quality_mode === 'quality_first' && (r.sourceTypes.length >= 2 || r.triggers.length > 0)) {
    profile = 'dual_lane_hybrid';
    reason = 'The intent asks for events that show up both in the news and in primary sources; a news lane and an official-source lane run side by side and are merged.';
    searches = [search('news_lane', `${focus} news`), search('primary_lane', `${focus} official announcement`)];
  } else {
    profile = 'precision_linear';
    reason = 'One subject and no competing source kinds: a single precise search is enough.';
    searches = [search('primary', focus)];
  }
  while (searches.length > 1 && total(searches) > budget) searches.pop();
  if (total(searches) > budget) {
    throw errors.validation('planning_budget_too_small', `A budget of ${budget} credits cannot pay for one search (1 credit) per execution.`, {
      details: { budget },
      suggestions: ['Raise max_credits_per_execution (or planning_budget) to at least 1.'],
    });
  }
  const steps = searches.length > 1 ? [...searches, join(searches.map((s) => s.id))] : searches;
  const queries = steps.map((s) => (s.type === 'search' ? s.config.query : '')).join(' ');
  const cover = coverage(r.topics, queries);
  const depth = Math.min(1, searches.length / 4 + maxResults / 40);
  const gaps = [
    ...cover.missing.map((t) => `"${t}" is not searched for`),
    ...(r.triggers.length === 0 ? ['no trigger event: every change will be reported'] : []),
    ...(r.sourceTypes.length === 0 ? ['no source type named: the web at large is searched'] : []),
  ];
  const coverageScore = r.topics.length === 0 ? 0 : round2(cover.score);
  return {
    intent: input.intent,
    name: input.name ?? `Monitor: ${input.intent.slice(0, 60)}`,
    planning_profile: profile,
    topology_reason: reason,
    planning_quality_score: round2((coverageScore + depth + (gaps.length === 0 ? 1 : 0.5)) / 3),
    coverage_score: coverageScore,
    depth_score: round2(depth),
    coverage_gaps: gaps,
    recommended_steps: steps,
    estimated_credits_per_execution: total(steps),
    preset: presetOf(input),
    credits_consumed: creditsConsumed,
  };
}

const total = (steps: Step[]) => steps.reduce((s, step) => s + stepCost(step), 0);
const round2 = (n: number) => Math.round(n * 100) / 100;
