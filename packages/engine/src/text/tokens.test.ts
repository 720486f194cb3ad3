import Database from 'better-sqlite3';
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
  const same = (a: string, b: string) => stem(a) === stem(b);

  it('is the Porter stem: the forms of a word meet, words that only look alike do not', () => {
    expect(same('pricing', 'price')).toBe(true);
    expect(same('prices', 'price')).toBe(true);
    expect(same('batteries', 'battery')).toBe(true);
    expect(same('cancelling', 'cancel')).toBe(true);
    expect(same('headphones', 'headphone')).toBe(true);
    expect(same('listings', 'list')).toBe(true);
    expect(same('monitoring', 'monitor')).toBe(true);
    expect(same('status', 'stat')).toBe(false);
    expect(same('apple', 'apply')).toBe(false);
  });

  it('folds diacritics as the index does and leaves other scripts alone', () => {
    expect(stem('café')).toBe(stem('cafe'));
    expect(stem('東京')).toBe('東京');
  });

  it('agrees with the local search index (SQLite FTS5 porter unicode61 remove_diacritics 2) on which words meet', () => {
    const db = new Database(':memory:');
    db.exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize = 'porter unicode61 remove_diacritics 2')");
    const vocabulary = ['pricing', 'price', 'prices', 'priced', 'batteries', 'battery', 'cancelling', 'cancel', 'headphones', 'headphone', 'generalization', 'general', 'relational', 'relate', 'running', 'runner', 'news', 'new', 'café', 'cafe'];
    const insert = db.prepare('INSERT INTO t (rowid, body) VALUES (?, ?)');
    vocabulary.forEach((w, i) => insert.run(i + 1, w));
    const match = db.prepare('SELECT rowid FROM t WHERE t MATCH ?');
    for (const query of vocabulary) {
      const byIndex = (match.all(`"${query}"`) as { rowid: number }[]).map((r) => vocabulary[r.rowid - 1]).sort();
      const byStem = vocabulary.filter((w) => same(w, query)).sort();
      expect(byStem, query).toEqual(byIndex);
    }
    db.close();
  });
});

describe('terms', () => {
  it('drops stopwords and folds plurals', () => {
    expect(terms('What are the prices of the glasses, the batteries and the status?')).toEqual(['price', 'glass', 'batteri', 'statu']);
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
