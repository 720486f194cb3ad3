import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAiProvider } from '../ai/openai.js';
import { startChatServer, type ChatServer } from './chat-server.fixture.js';
import { compareResults, type ResultItem } from './changes.js';
import { evaluateStopCondition, type StopConditionInput } from './stop-conditions.js';
import { StopCondition } from './schemas.js';

const results: ResultItem[] = [
  { url: 'http://shop.test/widget', title: 'Widget Pro price cut', description: 'The Widget Pro now costs 79 dollars after a price cut.', published_date: '2026-03-01', extracted_data: { price: '79.00', in_stock: true } },
  { url: 'http://news.test/story', title: 'Weather report', description: 'Rain tomorrow.', published_date: null, extracted_data: { price: 120 } },
];
const changes = compareResults(null, results);
let chat: ChatServer;
beforeAll(async () => {
  chat = await startChatServer();
});
afterAll(() => chat.close());

const judge = (condition: unknown, items = results, provider: Parameters<typeof evaluateStopCondition>[2] = undefined) =>
  evaluateStopCondition(StopCondition.parse(condition) as StopConditionInput, { results: items, changes: compareResults(null, items), intent: 'widget price cut' }, provider);

describe('stop conditions', () => {
  it('result_count compares the number of results', async () => {
    expect((await judge({ type: 'result_count', operator: '>=', value: 2 })).condition_met).toBe(true);
    expect((await judge({ type: 'result_count', operator: '>', value: 2 })).condition_met).toBe(false);
  });

  it('contains_url matches a result URL', async () => {
    expect(await judge({ type: 'contains_url', url: 'shop.test/widget' })).toMatchObject({ condition_met: true, evidence_url: 'http://shop.test/widget' });
    expect((await judge({ type: 'contains_url', url: 'shop.test/gadget' })).condition_met).toBe(false);
  });

  it('field_value reads result fields and the change counts', async () => {
    expect((await judge({ type: 'field_value', field: 'title', operator: 'contains', value: 'price cut' })).condition_met).toBe(true);
    expect((await judge({ type: 'field_value', field: 'net_new_count', operator: '==', value: changes.net_new_count, evaluate_on_first_run: true })).condition_met).toBe(true);
    expect((await judge({ type: 'field_value', field: 'title', operator: '==', value: 'nothing' })).condition_met).toBe(false);
  });

  it('skips change fields on the first (baseline) execution unless evaluate_on_first_run', async () => {
    const baseline = await judge({ type: 'field_value', field: 'change_rate', operator: '>', value: 0 });
    expect(baseline).toMatchObject({ condition_met: false, reason: expect.stringContaining('baseline') });
    expect((await judge({ type: 'field_value', field: 'change_rate', operator: '>', value: 0, evaluate_on_first_run: true })).condition_met).toBe(true);
    const later = compareResults({ id: 'prev', results: results.slice(0, 1) }, results);
    const second = await evaluateStopCondition(StopCondition.parse({ type: 'field_value', field: 'change_rate', operator: '>', value: 0 }) as StopConditionInput, { results, changes: later, intent: 'x' }, undefined);
    expect(second.condition_met).toBe(true);
    // Fields that do not compare executions are judged on the first run as always.
    expect((await judge({ type: 'field_value', field: 'result_count', operator: '==', value: 2 })).condition_met).toBe(true);
  });

  it('extracted_field compares extracted data, numbers as numbers', async () => {
    expect((await judge({ type: 'extracted_field', field: 'price', operator: '<', value: 80 })).condition_met).toBe(true);
    expect((await judge({ type: 'extracted_field', field: 'price', operator: '<', value: 50 })).condition_met).toBe(false);
    expect((await judge({ type: 'extracted_field', field: 'in_stock', operator: '==', value: true })).condition_met).toBe(true);
  });

  it('natural_language meets its threshold on lexical evidence and reports confidence', async () => {
    const met = await judge({ type: 'natural_language', description: 'the Widget Pro price cut is announced' });
    expect(met).toMatchObject({ condition_met: true, judged_by: 'heuristic', evidence_url: 'http://shop.test/widget' });
    expect(met.confidence).toBeGreaterThanOrEqual(0.7);
    const unmet = await judge({ type: 'natural_language', description: 'a merger between two airlines is approved by regulators' });
    expect(unmet.condition_met).toBe(false);
    expect(unmet.confidence).toBeLessThan(0.7);
    const permissive = await judge({ type: 'natural_language', description: 'the Widget Pro gets recalled by regulators', confidence_threshold: 0.4 });
    expect(permissive.condition_met).toBe(true);
  });

  it('threshold judges the workflow intent at its confidence', async () => {
    expect((await judge({ type: 'threshold', confidence_threshold: 0.9 })).condition_met).toBe(true);
    expect((await judge({ type: 'threshold', confidence_threshold: 0.9 }, [results[1]!])).condition_met).toBe(false);
  });

  it('always and none never stop, whatever the results', async () => {
    for (const type of ['always', 'none']) {
      expect((await judge({ type })).condition_met).toBe(false);
      expect((await judge({ type }, [])).condition_met).toBe(false);
    }
  });

  it('natural_language asks a configured model, and falls back to the heuristic when it fails', async () => {
    const model = openAiProvider({ baseUrl: chat.baseUrl, model: 'stub', timeoutMs: 5_000 });
    const condition = { type: 'natural_language', description: 'the cheapest widget costs under a hundred dollars' };
    chat.behave({ kind: 'answer', content: { met: true, confidence: 0.92, reason: 'the Widget Pro costs 79 dollars', evidence_url: 'http://shop.test/widget' } });
    expect(await judge(condition, results, model)).toMatchObject({ condition_met: true, judged_by: 'llm', confidence: 0.92, evidence_url: 'http://shop.test/widget' });
    chat.behave({ kind: 'status', status: 503 });
    const fallback = await judge(condition, results, model);
    expect(fallback).toMatchObject({ judged_by: 'heuristic', condition_met: false });
  });
});
