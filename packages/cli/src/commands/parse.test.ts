import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { commaList, intBetween, nonNegativeInt, positiveInt } from './parse.js';

describe('option parsers', () => {
  it('accepts 0 as an offset but not as a page size', () => {
    expect(nonNegativeInt('0')).toBe(0);
    expect(nonNegativeInt('25')).toBe(25);
    expect(() => positiveInt('0')).toThrow(InvalidArgumentError);
  });

  it('rejects negative, fractional and empty offsets', () => {
    for (const bad of ['-1', '1.5', '', ' ', 'ten']) expect(() => nonNegativeInt(bad), bad).toThrow(InvalidArgumentError);
  });

  it('takes a whole number within bounds, and names the bounds when refusing one', () => {
    const concurrency = intBetween(1, 64);
    expect([concurrency('1'), concurrency('64')]).toEqual([1, 64]);
    for (const bad of ['0', '65', '2.5', '', 'eight']) expect(() => concurrency(bad), bad).toThrow('expected a whole number from 1 to 64');
  });

  it('collects comma-separated and repeated values in order, dropping blanks', () => {
    const once = commaList('a, b,,c');
    expect(once).toEqual(['a', 'b', 'c']);
    expect(commaList('d', once)).toEqual(['a', 'b', 'c', 'd']);
  });
});
