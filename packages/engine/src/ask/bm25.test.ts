import { describe, expect, it } from 'vitest';
import { bm25Scores, terms } from './bm25.js';

describe('passage BM25', () => {
  it('scores by the Okapi formula with k1 1.2 and b 0.75 over the given texts', () => {
    const scores = bm25Scores('the solar panels', ['solar panel efficiency', 'wind turbine', 'solar']);
    // idf(solar) = ln(1 + 1.5/2.5), idf(panel) = ln(1 + 2.5/1.5); length norms 1.375 and 0.625.
    expect(scores[0]).toBeCloseTo((2.2 / 2.65) * (Math.log(1.6) + Math.log(1 + 2.5 / 1.5)), 6);
    expect(scores[1]).toBe(0);
    expect(scores[2]).toBeCloseTo((2.2 / 1.75) * Math.log(1.6), 6);
    expect(scores[0]).toBeCloseTo(1.20447, 4);
  });

  it('drops stopwords and folds plurals', () => {
    expect(terms('What are the prices of the glasses, the batteries and the status?')).toEqual(['price', 'glass', 'battery', 'status']);
  });
});
