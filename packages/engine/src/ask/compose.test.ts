import { describe, expect, it } from 'vitest';
import { citationsValid, citedFirst, citedNumbers, confidenceOf, extractiveAnswer, followUpQuestions, rankPassages, relevantDocs } from './compose.js';
import { splitPassages } from './passages.js';

const docs = [
  {
    url: 'https://a.test/tides',
    title: 'Tides',
    publishedDate: null,
    text: 'Tides are caused by the gravitational pull of the Moon and the Sun on the oceans.\n\nSpring tides happen when the Sun and Moon align, giving the largest tidal range.',
  },
  { url: 'https://b.test/cooking', title: 'Cooking', publishedDate: null, text: 'Pasta should be cooked in plenty of salted boiling water for about ten minutes.' },
  {
    url: 'https://c.test/moon',
    title: 'The Moon',
    publishedDate: null,
    text: 'The Moon raises two bulges of water on opposite sides of the Earth, which is why most coasts see two high tides a day.',
  },
];

describe('passages', () => {
  it('splits on paragraphs and keeps whole sentences', () => {
    const passages = splitPassages(0, docs[0]!.text);
    expect(passages.map((p) => p.text)).toEqual([
      'Tides are caused by the gravitational pull of the Moon and the Sun on the oceans.',
      'Spring tides happen when the Sun and Moon align, giving the largest tidal range.',
    ]);
  });

  it('leads a paragraph too short to quote (a heading, a one-line command) into the next, never dropping it', () => {
    const text = 'Install\n\nExample\n\norbit install --config value\n\nThe installer writes its configuration next to the binary.\n\nEnd';
    expect(splitPassages(0, text).map((p) => p.text)).toEqual([
      'Install Example orbit install --config value',
      'The installer writes its configuration next to the binary.',
    ]);
  });
});

describe('follow-up questions', () => {
  it('speak in the words of the question and the passages, never in stems', () => {
    const passages = [
      { url: 'https://d.test/watch', title: 'Watch', publishedDate: null, text: 'Availability of the Kestrel watch varies by category. Availability is checked daily for every category of watches.' },
    ];
    const { ranked } = rankPassages('Is the Kestrel watch in stock?', passages);
    const questions = followUpQuestions('Is the Kestrel watch in stock?', ranked);
    expect(questions.length).toBeGreaterThan(0);
    expect(questions.join(' ')).toMatch(/availability|category/);
    expect(questions.join(' ')).not.toMatch(/\bavail\b|\bcategori\b/);
  });
});

describe('extractive answers', () => {
  it('cites only pages with relevant passages, each marker naming one of them', () => {
    const { ranked, total } = rankPassages('What causes tides?', docs);
    expect(total).toBe(4);
    const relevant = relevantDocs(ranked, 10);
    expect(relevant).not.toContain(1);
    const answer = extractiveAnswer(ranked, relevant, 3);
    expect(citationsValid(answer, relevant.length)).toBe(true);
    expect(answer).toContain('Tides are caused by the gravitational pull of the Moon and the Sun on the oceans [1].');
    expect(citedNumbers(answer).every((n) => n <= relevant.length)).toBe(true);
  });

  it('rejects answers that cite nothing or a number beyond the sources', () => {
    expect(citationsValid('Tides come from the Moon.', 2)).toBe(false);
    expect(citationsValid('Tides come from the Moon [3].', 2)).toBe(false);
    expect(citationsValid('Tides come from the Moon [0].', 2)).toBe(false);
    expect(citationsValid('Tides come from the Moon [1, 2].', 2)).toBe(true);
  });

  it('renumbers sources so cited ones come first in order of citation', () => {
    const { answer, order } = citedFirst('B is true [3]. A too [1, 3].', 4);
    expect(answer).toBe('B is true [1]. A too [2][1].');
    expect(order).toEqual([3, 1, 2, 4]);
  });

  it('rates confidence from term coverage, agreeing pages and passage strength', () => {
    const { ranked } = rankPassages('What causes tides?', docs);
    const top = ranked.slice(0, 2);
    const best = Math.max(...top.map((p) => p.score));
    // "causes" meets "caused" (both Porter-stem to "caus"): coverage is 2 of 2 terms.
    expect(confidenceOf('What causes tides?', top)).toBeCloseTo(0.5 * 1 + 0.25 * (new Set(top.map((p) => p.doc)).size / 2) + 0.25 * (best / (best + 5)), 3);
    expect(confidenceOf('What causes tides?', [])).toBe(0);
  });
});
