import { describe, expect, it } from 'vitest';
import { defaultDepth, IntentScorer, tokenize } from './relevance.js';

describe('IntentScorer', () => {
  it('scores a link whose anchor and URL match the intent above one that does not', () => {
    const scorer = new IntentScorer('lightweight laptops for travel');
    const laptop = { url: 'https://a.test/product/7-slim-laptop', anchors: ['Slim Laptop 14'], context: 'Ultrabook for travel, 1.1 kg' };
    const kettle = { url: 'https://a.test/product/8-electric-kettle', anchors: ['Electric Kettle'], context: 'Boils water fast' };
    for (const c of [laptop, kettle]) scorer.observe(c);
    expect(scorer.score(laptop)).toBeGreaterThan(0.3);
    expect(scorer.score(kettle)).toBe(0);
    expect(scorer.score(laptop)).toBeLessThan(1);
  });

  it('weighs rare intent words above words every candidate has', () => {
    const scorer = new IntentScorer('garden hose reviews');
    const pages = Array.from({ length: 20 }, (_, i) => ({ url: `https://a.test/reviews/${i}`, anchors: ['Reviews'], context: '' }));
    const hose = { url: 'https://a.test/reviews/hose', anchors: ['Hose'], context: '' };
    for (const c of [...pages, hose]) scorer.observe(c);
    expect(scorer.score(hose)).toBeGreaterThan(scorer.score(pages[0]!));
  });

  it('scores nothing without an intent', () => {
    const scorer = new IntentScorer(undefined);
    expect(scorer.active).toBe(false);
    expect(scorer.score({ url: 'https://a.test/x', anchors: ['x'], context: '' })).toBe(0);
  });
});

describe('tokenize', () => {
  it('drops stopwords and numbers and strips plurals', () => {
    expect(tokenize('Find the best Laptops and batteries of 2026')).toEqual(['best', 'laptop', 'batteri']);
  });
});

describe('defaultDepth', () => {
  it('is 1 without intent, 2 with one, 3 when it asks for individual, specific or detail pages', () => {
    expect(defaultDepth(undefined)).toBe(1);
    expect(defaultDepth('espresso machines for offices')).toBe(2);
    expect(defaultDepth('the specific models and their prices')).toBe(3);
    expect(defaultDepth('product details of every kettle')).toBe(3);
    expect(defaultDepth('individual reviews')).toBe(3);
  });
});
