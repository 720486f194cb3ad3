import { describe, expect, it } from 'vitest';
import { PlanBody } from './schemas.js';
import { planWorkflow } from './planner.js';
import { findCycle } from './schedule-rules.js';

const plan = (body: Record<string, unknown>) => planWorkflow(PlanBody.parse(body), 10);

describe('planner', () => {
  it('forks one search per named entity and joins them', () => {
    const p = plan({ intent: 'Compare pricing pages of Acme, Globex and Initech for analytics tools' });
    expect(p.planning_profile).toBe('fork_join_dag');
    expect(p.recommended_steps.filter((s) => s.type === 'search')).toHaveLength(3);
    expect(p.recommended_steps.at(-1)).toMatchObject({ type: 'aggregate', depends_on: ['entity_1', 'entity_2', 'entity_3'] });
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
});
