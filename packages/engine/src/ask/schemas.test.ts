import { describe, expect, it } from 'vitest';
import { parseInput } from '../core/validate.js';
import { expectRejected } from '../testing/validation.js';
import { AskBody } from './schemas.js';

describe('ask request', () => {
  it('defaults to standard depth, 10 sources and rendering only application shells', () => {
    expect(parseInput(AskBody, { question: 'What changed in Node 22?' })).toEqual({ question: 'What changed in Node 22?', depth: 'standard', max_sources: 10, render: 'auto' });
  });
  it('refuses a missing question, an unknown depth and max_sources outside 1 to 20', () => {
    expectRejected(AskBody, {}, 'question_required', 'question');
    expectRejected(AskBody, { question: 'x', depth: 'bottomless' }, 'depth_invalid', 'depth');
    expectRejected(AskBody, { question: 'x', max_sources: 21 }, 'max_sources_out_of_range', 'max_sources');
    expectRejected(AskBody, { question: 'x', max_sources: 0 }, 'max_sources_out_of_range', 'max_sources');
  });
});
