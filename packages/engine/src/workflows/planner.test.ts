import { describe, expect, it } from 'vitest';
import { PlanBody } from './schemas.js';
import { planWorkflow } from './planner.js';
import { findCycle } from './schedule-rules.js';

const plan = (body: Record<string, unknown>) => planWorkflow(PlanBody.parse(body), 10);

describe('planner', () => {
  it('forks one search per named entity and joins them', () => {
    const p = plan({ intent: 'Compare pricing pages of Acme, Globex and Initech for analytics tools' });
    expect(p.planning_profile).toBe('fork_join_dag');
    expect(p.recommended_steps.filter((s) => s.type === 'search' && s.id.startsWith('entity_'))).toHaveLength(3);
    expect(p.recommended_steps.at(-1)).toMatchObject({ type: 'aggregate', depends_on: expect.arrayContaining(['entity_1', 'entity_2', 'entity_3']) });
    expect(findCycle(p.recommended_steps)).toBeNull();
  });

  it('runs two lanes for trigger events and one precise search otherwise', () => {
    expect(plan({ intent: 'alert me about a new release of the rust compiler' }).planning_profile).toBe('dual_lane_hybrid');
    expect(plan({ intent: 'follow rust compiler development', quality_mode: 'balanced' }).planning_profile).toBe('precision_linear');
  });

  it('keeps the execution within the budget and refuses a budget below one search', () => {
    const p = plan({ intent: 'Compare pricing pages of Acme, Globex and Initech for analytics tools', max_credits_per_execution: 2 });
    expect(p.estimated_credits_per_execution).toBeLessThanOrEqual(2);
    expect(() => plan({ intent: 'Compare pricing of Acme analytics tools', planning_budget: 0.5, max_credits_per_execution: 100 })).toThrow(/cannot pay/);
  });

  it('reports every plan field with scores between 0 and 1', () => {
    const p = plan({ intent: 'alert me about a new release of the rust compiler', preset: 'thorough' });
    expect(p).toMatchObject({ preset: 'thorough', credits_consumed: 10, topology_reason: expect.any(String), coverage_gaps: expect.any(Array) });
    for (const score of [p.planning_quality_score, p.coverage_score, p.depth_score]) expect(score).toBeGreaterThanOrEqual(0);
    for (const score of [p.planning_quality_score, p.coverage_score, p.depth_score]) expect(score).toBeLessThanOrEqual(1);
  });

  it('plans more for a larger preset: more queries, more results, a deeper crawl and higher coverage', () => {
    const intent = 'Track price drops of Veltro and Quillo noise cancelling headphones';
    const quick = plan({ intent, preset: 'quick' });
    const standard = plan({ intent, preset: 'standard' });
    const comprehensive = plan({ intent, preset: 'comprehensive' });
    const searches = (p: typeof quick) => p.recommended_steps.filter((s) => s.type === 'search');
    expect(searches(standard).length).toBeGreaterThan(searches(quick).length);
    expect(searches(comprehensive).length).toBeGreaterThan(searches(standard).length);
    const maxResults = (p: typeof quick) => Math.max(...searches(p).map((s) => (s.type === 'search' ? s.config.max_results : 0)));
    expect(maxResults(comprehensive)).toBeGreaterThan(maxResults(quick));
    expect(quick.recommended_steps.some((s) => s.type === 'crawl')).toBe(false);
    expect(comprehensive.recommended_steps.at(-1)).toMatchObject({ type: 'crawl', depends_on: ['combine'], config: { urls: ['{{combine}}'] } });
    expect(comprehensive.depth_score).toBeGreaterThan(standard.depth_score);
    expect(standard.depth_score).toBeGreaterThan(quick.depth_score);
    expect(comprehensive.coverage_score).toBeGreaterThan(quick.coverage_score);
    expect(comprehensive.estimated_credits_per_execution).toBeGreaterThan(quick.estimated_credits_per_execution);
    expect(findCycle(comprehensive.recommended_steps)).toBeNull();
  });

  it('still fits a larger preset into the execution budget, dropping the crawl first', () => {
    const p = plan({ intent: 'Track price drops of Veltro and Quillo noise cancelling headphones', preset: 'comprehensive', max_credits_per_execution: 3 });
    expect(p.estimated_credits_per_execution).toBeLessThanOrEqual(3);
    expect(p.recommended_steps.some((s) => s.type === 'crawl')).toBe(false);
  });

  it('builds readable queries from the intent’s own words, as written, and covers every one', () => {
    const intent = 'Track price drops of Veltro and Quillo noise cancelling headphones';
    const written = new Set(intent.split(' '));
    for (const preset of ['quick', 'standard', 'comprehensive'] as const) {
      const p = plan({ intent, preset });
      const queries = p.recommended_steps.flatMap((s) => (s.type === 'search' && s.id.startsWith('entity_') ? [s.config.query] : []));
      expect(queries).toEqual(['Veltro price drops noise cancelling headphones', 'Quillo price drops noise cancelling headphones']);
      for (const q of queries) for (const word of q.split(' ')) expect(written).toContain(word);
      expect(p.coverage_gaps.filter((g) => g.includes('not searched for'))).toEqual([]);
    }
  });
});
