import { describe, expect, it } from 'vitest';
import { readIntent } from './intent-reading.js';
import { coverage, terms } from './lexical.js';

describe('reading an intent', () => {
  it('finds named entities, but not a capital that only opens a sentence', () => {
    const r = readIntent('Compare pricing of Acme Corp and "Globex cloud". Watch Initech too.');
    expect(r.entities).toEqual(['Globex cloud', 'Acme Corp', 'Initech']);
  });

  it('finds triggers, exclusions, numbers, sites and vague words', () => {
    const r = readIntent('Alert me on a price drop below 20% on shop.example.com, ignoring refurbished units, or any news');
    expect(r.triggers).toEqual(expect.arrayContaining(['price', 'drop', 'below']));
    expect(r.exclusions).toEqual(['refurbished units']);
    expect(r.numbers).toEqual(['20%']);
    expect(r.domains).toEqual(['shop.example.com']);
    expect(r.vagueWords).toEqual(['news']);
  });

  it('matches plural and singular content words', () => {
    expect(terms('The prices of batteries')).toEqual(['price', 'batteri']);
    expect(coverage(terms('The prices of batteries'), 'battery price list').score).toBe(1);
  });
});
