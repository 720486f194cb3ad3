import { describe, expect, it } from 'vitest';
import type { ModelProvider } from '../ai/provider.js';
import { assessIntent } from './assess.js';

const failing = (reason: 'timeout' | 'provider_error'): ModelProvider => ({
  name: 'openai',
  model: 'stub',
  generateObject: async () => ({ ok: false, reason, message: 'down', usage: { promptTokens: 0, completionTokens: 0 } }),
  generateText: async () => ({ ok: false, reason, message: 'down', usage: { promptTokens: 0, completionTokens: 0 } }),
});
const never: ModelProvider = { ...failing('timeout'), generateObject: () => new Promise(() => undefined) };

describe('intent assessment', () => {
  it('scores a specific intent 7 or more and infers what to watch', async () => {
    const a = await assessIntent('Alert me when Acme Corp announces a price increase above 10% for its Solar X2 inverter on acme.com', { provider: undefined, timeoutMs: 1000, rateLimited: false });
    expect(a).toMatchObject({ assessment: 'specific', assessment_source: 'heuristic', is_assessed: true, inferred: { monitoring_type: 'price_tracking', suggested_cadence: 'daily' } });
    expect(a.specificity_score).toBeGreaterThanOrEqual(7);
    expect(a.inferred.entities).toContain('Acme Corp');
    expect(a.vague_aspects).toBeUndefined();
  });

  it('explains a vague intent and proposes a sharper one', async () => {
    const a = await assessIntent('news and updates about stuff in tech', { provider: undefined, timeoutMs: 1000, rateLimited: false });
    expect(a.assessment).toBe('vague');
    expect(a.specificity_score).toBeLessThan(7);
    expect(a.vague_aspects!.length).toBeGreaterThan(0);
    expect(a.proposed_intent).toMatch(/Alert me when/);
    expect(a.what_we_clarified!.length).toBeGreaterThan(0);
  });

  it('falls back to the heuristic with the model’s failure reason, and times out a silent model', async () => {
    const failed = await assessIntent('Track Acme price changes on acme.com', { provider: failing('provider_error'), timeoutMs: 1000, rateLimited: false });
    expect(failed).toMatchObject({ assessment_source: 'heuristic', fallback_reason_code: 'provider_error' });
    const silent = await assessIntent('Track Acme price changes on acme.com', { provider: never, timeoutMs: 1000, rateLimited: false });
    expect(silent).toMatchObject({ assessment_source: 'heuristic', fallback_reason_code: 'timeout' });
  });
});
