import { describe, expect, it } from 'vitest';
import { coerce, currencyOf, normalizeAvailability, parseBoolean, parseDate, parseNumber } from './coerce.js';

describe('numbers as people write them', () => {
  it.each([
    ['$1,299.99', 1299.99],
    ['1.299,00 €', 1299],
    ['1 299,50 zł', 1299.5],
    ['EUR 1299.00', 1299],
    ['€39,90', 39.9],
    ['1,299', 1299],
    ['1.299', 1299],
    ['4.5 out of 5', 4.5],
    ['12', 12],
    ['1.234.567', 1234567],
    ["CHF 1'250.00", 1250],
  ])('%s → %d', (text, value) => expect(parseNumber(text)).toBe(value));

  it('gives null when there is no number', () => expect(parseNumber('free')).toBeNull());
});

describe('dates', () => {
  it.each([
    ['2026-01-14T09:30:00+00:00', '2026-01-14T09:30:00.000Z'],
    ['2026-02-03', '2026-02-03'],
    ['January 14, 2026', '2026-01-14'],
    ['Tue 3 Feb 2026 07.15 GMT', '2026-02-03'],
    ['14. März 2026', '2026-03-14'],
    ['14.03.2026', '2026-03-14'],
    ['03/14/2026', '2026-03-14'],
    ['1er janvier 2026', null],
    ['5 août 2025', '2025-08-05'],
  ])('%s → %s', (text, iso) => expect(parseDate(text)).toBe(iso));
});

describe('booleans, availability and currencies', () => {
  it('reads stock states in several forms', () => {
    expect(normalizeAvailability('https://schema.org/InStock')).toBe('InStock');
    expect(normalizeAvailability('Sold out')).toBe('OutOfStock');
    expect(normalizeAvailability('14 vorrätig')).toBe('InStock');
    expect(normalizeAvailability('Ships in 3 weeks')).toBeNull();
    expect(parseBoolean('OutOfStock')).toBe(false);
    expect(parseBoolean('Yes')).toBe(true);
  });

  it('names the currency of a price text', () => {
    expect(currencyOf('€12')).toBe('EUR');
    expect(currencyOf('US$ 5')).toBe('USD');
    expect(currencyOf('£64.50')).toBe('GBP');
    expect(currencyOf('1 299,50 zł')).toBe('PLN');
    expect(currencyOf('GBP')).toBe('GBP');
    expect(currencyOf('12')).toBeNull();
  });

  it('coerces to lists, urls and capped strings', () => {
    expect(coerce('a, b; c', 'list')).toEqual(['a', 'b', 'c']);
    expect(coerce('not a url', 'url')).toBeNull();
    expect(coerce(['x', 'y'], 'string')).toBe('x, y');
    expect(String(coerce('x'.repeat(3_000), 'string')).length).toBe(2_001);
  });
});
