import { describe, expect, it } from 'vitest';
import { Bm25Corpus, bm25Scores } from './bm25.js';
import { terms } from './tokens.js';

const scoresOf = (query: string, texts: string[]) => bm25Scores(terms(query), texts.map((t) => terms(t)));

describe('bm25Scores', () => {
  it('scores by the Okapi formula with k1 1.2 and b 0.75 over the given texts', () => {
    const scores = scoresOf('the solar panels', ['solar panel efficiency', 'wind turbine', 'solar']);
    // idf(solar) = ln(1 + 1.5/2.5), idf(panel) = ln(1 + 2.5/1.5); length norms 1.375 and 0.625.
    expect(scores[0]).toBeCloseTo((2.2 / 2.65) * (Math.log(1.6) + Math.log(1 + 2.5 / 1.5)), 6);
    expect(scores[1]).toBe(0);
    expect(scores[2]).toBeCloseTo((2.2 / 1.75) * Math.log(1.6), 6);
    expect(scores[0]).toBeCloseTo(1.20447, 4);
  });

  it('scores nothing for an empty query or empty documents', () => {
    expect(scoresOf('the of', ['the solar panel'])).toEqual([0]);
    expect(scoresOf('solar', ['', 'solar'])[0]).toBe(0);
  });

  it('counts a repeated query term once', () => {
    expect(scoresOf('solar solar', ['solar', 'wind'])).toEqual(scoresOf('solar', ['solar', 'wind']));
  });
});

describe('Bm25Corpus', () => {
  it('gives the same scores as bm25Scores once every document is added', () => {
    const docs = ['solar panel efficiency', 'wind turbine', 'solar'].map((t) => terms(t));
    const corpus = new Bm25Corpus(terms('solar panels'));
    for (const d of docs) corpus.add(d);
    expect(corpus.size).toBe(3);
    expect(docs.map((d) => corpus.score(d))).toEqual(bm25Scores(terms('solar panels'), docs));
  });

  it('lowers a term\'s weight as more documents carrying it are seen', () => {
    const corpus = new Bm25Corpus(['hose', 'review']);
    const review = ['review'];
    corpus.add(review);
    const early = corpus.score(review);
    for (let i = 0; i < 10; i++) corpus.add(review);
    corpus.add(['hose']);
    expect(corpus.score(review)).toBeLessThan(early);
    expect(corpus.score(['hose'])).toBeGreaterThan(corpus.score(review));
  });

  it('scores a document before anything was added, as a collection of one', () => {
    const corpus = new Bm25Corpus(['laptop']);
    // N = 1, df = 0: idf = ln(1 + 1.5 / 0.5); the document is its own average length.
    expect(corpus.score(['laptop', 'slim'])).toBeCloseTo(Math.log(4), 6);
    expect(corpus.score(['kettle'])).toBe(0);
  });

  it('is inactive and scores 0 without query terms', () => {
    const corpus = new Bm25Corpus([]);
    expect(corpus.active).toBe(false);
    expect(corpus.score(['anything'])).toBe(0);
  });
});
