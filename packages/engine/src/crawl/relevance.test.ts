import { describe, expect, it } from 'vitest';
import { defaultDepth, IntentScorer, intentTerms, tokenize } from './relevance.js';

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

  it('matches a hyphenated intent word only where its parts stand together, hyphenated or not', () => {
    const scorer = new IntentScorer('how to configure write-ahead logging');
    const toc = (slug: string, title: string) => ({ url: `https://docs.test/${slug}.html`, anchors: [title], context: title });
    const wal = toc('wal-intro', '30.2. Write-Ahead Logging');
    const spaced = toc('runtime-config-wal', '19.5. Write Ahead Log');
    const writing = toc('plhandler', '56. Writing A Procedural Language Handler');
    const wrapper = toc('fdwhandler', '57. Writing A Foreign Data Wrapper');
    const others = ['Tutorial', 'SQL Commands', 'Data Types', 'Indexes', 'Client Authentication'].map((t, i) => toc(`p${i}`, t));
    for (const c of [wal, spaced, writing, wrapper, ...others]) scorer.observe(c);
    expect(scorer.score(writing)).toBe(0);
    expect(scorer.score(wrapper)).toBe(0);
    expect(scorer.score(wal)).toBeGreaterThan(0.5);
    expect(scorer.score(spaced)).toBeGreaterThan(0.5);
  });

  it('keeps a hyphenated word of one stem as a plain term', () => {
    expect(intentTerms('e-mail marketing tools')).toEqual({ terms: ['mail', 'market', 'tool'], compounds: [] });
    expect(intentTerms('noise-cancelling headphones').terms).toEqual(['headphon', 'nois+cancel']);
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
