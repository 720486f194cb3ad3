import { describe, expect, it } from 'vitest';
import { STOPWORDS, sentences, stem, terms, withStopwords, words } from './tokens.js';

describe('words', () => {
  it('lowercases runs of letters and digits in any script', () => {
    expect(words('Größe: 42cm — Ñandú, 東京!')).toEqual(['größe', '42cm', 'ñandú', '東京']);
  });

  it('is empty for text without letters or digits', () => {
    expect(words(' -- !? ')).toEqual([]);
  });
});

describe('stem', () => {
  it('folds plurals without eating words that end in s', () => {
    expect(['prices', 'batteries', 'glasses', 'boxes', 'matches', 'status', 'analysis', 'bus', 'class'].map(stem)).toEqual([
      'price', 'battery', 'glass', 'box', 'match', 'status', 'analysis', 'bus', 'class',
    ]);
  });

  it('drops -ing from longer words so listings, listing and list meet', () => {
    expect(['listings', 'listing', 'list', 'monitoring', 'thing', 'sing'].map(stem)).toEqual(['list', 'list', 'list', 'monitor', 'thing', 'sing']);
  });
});

describe('terms', () => {
  it('drops stopwords and folds plurals', () => {
    expect(terms('What are the prices of the glasses, the batteries and the status?')).toEqual(['price', 'glass', 'battery', 'status']);
  });

  it('drops short words and numbers when asked', () => {
    expect(terms('Find 3 tv deals in 2026', { minLength: 3, dropNumbers: true })).toEqual(['find', 'deal']);
    expect(terms('Find 3 tv deals in 2026')).toEqual(['find', '3', 'tv', 'deal', '2026']);
  });

  it('takes a caller\'s domain words on top of the shared stopwords', () => {
    const stop = withStopwords(['notify', 'find']);
    expect(terms('Notify me when they find cheaper flights', { stopwords: stop })).toEqual(['cheaper', 'flight']);
    expect(stop.has('the')).toBe(true);
    expect(STOPWORDS.has('notify')).toBe(false);
  });
});

describe('sentences', () => {
  it('splits at sentence ends before a capital, digit or quote, and at line breaks', () => {
    expect(sentences('Prices rose. 3 shops closed! "Why?" asked one.\nNext line')).toEqual(['Prices rose.', '3 shops closed!', '"Why?" asked one.', 'Next line']);
  });

  it('keeps abbreviations followed by lower-case words inside one sentence', () => {
    expect(sentences('It costs approx. five euros, e.g. at the market. Then it rained.')).toEqual([
      'It costs approx. five euros, e.g. at the market.',
      'Then it rained.',
    ]);
  });

  it('drops empty pieces', () => {
    expect(sentences('\n\n  One.  \n\n')).toEqual(['One.']);
  });
});
