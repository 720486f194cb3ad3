import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { commaList, nonNegativeInt, positiveInt } from './parse.js';

describe('option parsers', () => {
  it('accepts 0 as an offset but not as a page size', () => {
    expect(nonNegativeInt('0')).toBe(0);
    expect(nonNegativeInt('25')).toBe(25);
    expect(() => positiveInt('0')).toThrow(InvalidArgumentError);
  });

  it('rejects negative, fractional and empty offsets', () => {
    for (const bad of ['-1', '1.5', '', ' ', 'ten']) expect(() => nonNegativeInt(bad), bad).toThrow(InvalidArgumentError);
  });

  it('collects comma-separated and repeated values in order, dropping blanks', () => {
    const once = commaList('a, b,,c');
    expect(once).toEqual(['a', 'b', 'c']);
    expect(commaList('d', once)).toEqual(['a', 'b', 'c', 'd']);
  });
});
