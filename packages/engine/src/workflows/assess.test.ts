import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAiProvider } from '../ai/openai.js';
import type { ModelProvider } from '../ai/provider.js';
import { assessIntent } from './assess.js';
import { startChatServer, type ChatServer } from './chat-server.fixture.js';

let chat: ChatServer;
let model: ModelProvider;
beforeAll(async () => {
  chat = await startChatServer();
  model = openAiProvider({ baseUrl: chat.baseUrl, model: 'stub', timeoutMs: 5_000 });
});
afterAll(() => chat.close());

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

  it('takes the model’s answer when it gives one', async () => {
    chat.behave({
      kind: 'answer',
      content: {
        assessment: 'specific',
        specificity_score: 9,
        inferred: { trigger_conditions: ['price above 500'], exclusions: [], entities: ['Acme'], source_types: ['official'], suggested_cadence: 'hourly', monitoring_type: 'price_tracking' },
        reasoning: 'names a product and a threshold',
      },
    });
    const a = await assessIntent('Track Acme price changes on acme.com', { provider: model, timeoutMs: 5_000, rateLimited: false });
    expect(a).toMatchObject({ assessment_source: 'llm', is_assessed: true, specificity_score: 9, inferred: { suggested_cadence: 'hourly' } });
    expect(a.fallback_reason_code).toBeUndefined();
  });

  it('falls back to the heuristic with the model’s failure reason, and times out a silent model', async () => {
    chat.behave({ kind: 'status', status: 500 });
    const failed = await assessIntent('Track Acme price changes on acme.com', { provider: model, timeoutMs: 5_000, rateLimited: false });
    expect(failed).toMatchObject({ assessment_source: 'heuristic', fallback_reason_code: 'provider_error', is_assessed: true });
    chat.behave({ kind: 'answer', content: { not: 'an assessment' } });
    expect((await assessIntent('Track Acme price changes on acme.com', { provider: model, timeoutMs: 5_000, rateLimited: false })).fallback_reason_code).toBe('parse_error');
    chat.behave({ kind: 'silent' });
    const silent = await assessIntent('Track Acme price changes on acme.com', { provider: model, timeoutMs: 1_000, rateLimited: false });
    expect(silent).toMatchObject({ assessment_source: 'heuristic', fallback_reason_code: 'timeout' });
  });

  it('does not call the model past the rate limit', async () => {
    const before = chat.requests;
    const a = await assessIntent('Track Acme price changes on acme.com', { provider: model, timeoutMs: 5_000, rateLimited: true });
    expect(a).toMatchObject({ assessment_source: 'heuristic', fallback_reason_code: 'rate_limited' });
    expect(chat.requests).toBe(before);
  });
});
