import { describe, expect, it } from 'vitest';
import { parseInput } from '../core/validate.js';
import { expectRejected, type RejectionCase } from '../testing/validation.js';
import { AssessIntentBody, PlanBody, WorkflowCreateBody, WorkflowListQuery, WorkflowPatchBody } from './schemas.js';
import { cronProblem, intervalToMinutes } from './schedule-rules.js';

const simple = { name: 'Watch prices', workflow_type: 'search', operation_config: { query: 'laptop prices' }, interval: '1 day' };
const step = (id: string, depends_on?: string[]) => ({ id, type: 'search', config: { query: id }, ...(depends_on ? { depends_on } : {}) });

describe('workflow create', () => {
  it('defaults to simple mode with an always stop condition in UTC', () => {
    expect(parseInput(WorkflowCreateBody, simple)).toMatchObject({ mode: 'simple', stop_condition: { type: 'always' }, timezone: 'UTC', dry_run: false });
  });

  it('accepts the three modes and every stop condition type', () => {
    const conditions = [
      { type: 'result_count', operator: '>=', value: 5 },
      { type: 'contains_url', url: 'https://example.com/launch' },
      { type: 'field_value', field: 'price', operator: '<', value: 500 },
      { type: 'extracted_field', field: 'status', operator: '==', value: 'released' },
      { type: 'natural_language', description: 'the product has been released' },
      { type: 'always' },
      { type: 'none' },
      { type: 'threshold', confidence_threshold: 0.8 },
    ];
    for (const stop_condition of conditions) expect(parseInput(WorkflowCreateBody, { ...simple, stop_condition })).toBeTruthy();
    expect(parseInput(WorkflowCreateBody, { ...simple, stop_condition: conditions[4] }).stop_condition).toMatchObject({ confidence_threshold: 0.7 });
    // threshold takes the same default as natural_language.
    expect(parseInput(WorkflowCreateBody, { ...simple, stop_condition: { type: 'threshold' } }).stop_condition).toEqual({ type: 'threshold', confidence_threshold: 0.7 });
    expect(parseInput(WorkflowCreateBody, { name: 'p', mode: 'multi_step', steps: [step('a'), step('b', ['a'])], cron_expression: '0 9 * * MON-FRI' })).toBeTruthy();
    expect(parseInput(WorkflowCreateBody, { name: 'p', mode: 'ai_planned', intent: 'track new GPU launches', max_credits_per_execution: 10, interval_minutes: 60 })).toBeTruthy();
  });

  const cases: RejectionCase[] = [
    ['a name over 255 characters', { ...simple, name: 'n'.repeat(256) }, 'name_too_long', 'name'],
    ['simple mode without workflow_type', { ...simple, workflow_type: undefined }, 'workflow_type_required', 'workflow_type'],
    ['simple mode without operation_config', { ...simple, operation_config: undefined }, 'operation_config_required', 'operation_config'],
    ['an operation_config that is not a search', { ...simple, operation_config: { urls: ['https://x.test/'] } }, 'operation_config_invalid'],
    ['multi_step without steps', { name: 'p', mode: 'multi_step', interval: '1 hour' }, 'steps_required', 'steps'],
    ['a step depending on an unknown step', { name: 'p', mode: 'multi_step', steps: [step('a', ['zz'])], interval: '1 hour' }, 'step_unknown_dependency', 'steps.0.depends_on'],
    ['steps that form a cycle', { name: 'p', mode: 'multi_step', steps: [step('a', ['b']), step('b', ['a'])], interval: '1 hour' }, 'steps_cycle', 'steps'],
    ['a repeated step id', { name: 'p', mode: 'multi_step', steps: [step('a'), step('a')], interval: '1 hour' }, 'step_duplicate_id', 'steps.1.id'],
    ['operation_config on a multi_step workflow', { name: 'p', mode: 'multi_step', steps: [step('a')], operation_config: { query: 'x' }, interval: '1 hour' }, 'operation_config_not_applicable', 'operation_config'],
    ['operation_config on an ai_planned workflow', { name: 'p', mode: 'ai_planned', intent: 'track GPU launches', max_credits_per_execution: 5, operation_config: { query: 'x' }, interval: '1 hour' }, 'operation_config_not_applicable', 'operation_config'],
    ['ai_planned without an intent', { name: 'p', mode: 'ai_planned', max_credits_per_execution: 5, interval: '1 hour' }, 'intent_required', 'intent'],
    ['ai_planned without a budget', { name: 'p', mode: 'ai_planned', intent: 'track GPU launches', interval: '1 hour' }, 'max_credits_per_execution_required', 'max_credits_per_execution'],
    ['no schedule', { ...simple, interval: undefined }, 'schedule_required'],
    ['an interval in fortnights', { ...simple, interval: '2 fortnights' }, 'interval_invalid', 'interval'],
    ['interval_minutes 0', { ...simple, interval_minutes: 0 }, 'interval_minutes_out_of_range', 'interval_minutes'],
    ['a 6-field cron', { ...simple, cron_expression: '0 0 9 * * *' }, 'cron_expression_invalid', 'cron_expression'],
    ['a cron hour of 24', { ...simple, cron_expression: '0 24 * * *' }, 'cron_expression_invalid', 'cron_expression'],
    ['interval together with cron_expression', { ...simple, cron_expression: '0 9 * * *' }, 'schedule_conflict', 'cron_expression'],
    ['interval_minutes together with cron_expression', { ...simple, interval: undefined, interval_minutes: 30, cron_expression: '0 9 * * *' }, 'schedule_conflict', 'cron_expression'],
    ['a scheduled_for that is not ISO 8601', { ...simple, scheduled_for: 'tomorrow' }, 'scheduled_for_invalid', 'scheduled_for'],
    ['anchor_minute 60', { ...simple, anchor_minute: 60 }, 'anchor_minute_out_of_range', 'anchor_minute'],
    ['an unknown time zone', { ...simple, timezone: 'Mars/Olympus' }, 'timezone_invalid', 'timezone'],
    ['a confidence threshold over 1', { ...simple, stop_condition: { type: 'natural_language', description: 'the price drops', confidence_threshold: 1.5 } }, 'confidence_threshold_out_of_range', 'stop_condition.confidence_threshold'],
    ['an unknown stop condition type', { ...simple, stop_condition: { type: 'eventually' } }, 'type_invalid', 'stop_condition.type'],
    ['a bad comparison operator', { ...simple, stop_condition: { type: 'result_count', operator: '=>', value: 1 } }, 'operator_invalid', 'stop_condition.operator'],
    ['a webhook that is not a URL', { ...simple, notification_config: { webhook_url: 'nope' } }, 'webhook_url_invalid_format', 'notification_config.webhook_url'],
  ];
  it.each(cases)('refuses %s', (_l, input, code, path) => expectRejected(WorkflowCreateBody, input, code, path));
});

describe('workflow patch, list, assess-intent and plan', () => {
  it('refuses an empty patch and an unknown status', () => {
    expectRejected(WorkflowPatchBody, {}, 'patch_body_empty');
    expectRejected(WorkflowPatchBody, { status: 'sleeping' }, 'status_invalid', 'status');
  });
  it('splits comma-separated tags', () => {
    expect(parseInput(WorkflowListQuery, { tags: 'ai, gpu' })).toMatchObject({ tags: ['ai', 'gpu'], scope: 'all', sort_by: 'created' });
  });
  it('bounds the intent and the assessment timeout', () => {
    expect(parseInput(AssessIntentBody, { intent: 'track new GPU launches' }).timeout).toBe(10_000);
    expectRejected(AssessIntentBody, { intent: 'gpus' }, 'intent_too_short', 'intent');
    expectRejected(AssessIntentBody, { intent: 'track new GPU launches', timeout: 500 }, 'timeout_out_of_range', 'timeout');
    expectRejected(AssessIntentBody, { intent: 'track new GPU launches', timeout: 30_001 }, 'timeout_out_of_range', 'timeout');
    expectRejected(PlanBody, { intent: 'g'.repeat(2001) }, 'intent_too_long', 'intent');
    expect(parseInput(PlanBody, { intent: 'track new GPU launches' }).quality_mode).toBe('quality_first');
  });
  it('reads intervals in every unit', () => {
    expect([intervalToMinutes('15 minutes'), intervalToMinutes('2 hours'), intervalToMinutes('1 day'), intervalToMinutes('1 week')]).toEqual([15, 120, 1440, 10080]);
    expect(intervalToMinutes('0 hours')).toBeNull();
  });
  it('rejects intervals longer than a year, which would overflow the next run time', () => {
    expect([intervalToMinutes('365 days'), intervalToMinutes('366 days'), intervalToMinutes('99999999999999 weeks')]).toEqual([525_600, null, null]);
  });
  it('rejects cron expressions the scheduler cannot run: backwards ranges, oversized steps, edge spaces', () => {
    for (const cron of ['5-1 * * * *', '0 0 * DEC-JAN *', '0 0 1 */13 *', '*/61 * * * *', ' 0 0 * * *']) expect(cronProblem(cron), cron).not.toBeNull();
    for (const cron of ['0 9 * * MON-SUN', '0 9 * * SAT-SUN', '*/60 * * * *', '0 0 */31 * *']) expect(cronProblem(cron), cron).toBeNull();
  });
});
