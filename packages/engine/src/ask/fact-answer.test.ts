import { describe, expect, it } from 'vitest';
import { askedAttributes } from './attributes.js';
import { factAnswer, type SourceFacts } from './fact-answer.js';

const product = (marker: number, name: string, price: number, availability: string): SourceFacts => ({
  marker,
  facts: { name, values: { price, currency: 'EUR', availability }, confidence: 0.9 },
});

describe('factAnswer', () => {
  const found = [
    product(1, 'Ortho Noise Cancelling Over-Ear Headphones 117', 559.52, 'InStock'),
    product(2, 'Ortho Wireless Noise Cancelling Headset 165', 608.37, 'OutOfStock'),
    product(3, 'Veltro Noise Cancelling Headphones 141', 1715.5, 'InStock'),
  ];

  it('lists only what is in stock, with price and marker, and counts the rest with their markers', () => {
    const answer = factAnswer(askedAttributes('Which noise cancelling headphones are in stock, and what do they cost?'), found);
    expect(answer).toBe(
      'Ortho Noise Cancelling Over-Ear Headphones 117 costs 559.52 EUR and is in stock [1]. ' +
        'Veltro Noise Cancelling Headphones 141 costs 1715.50 EUR and is in stock [3]. 1 other is not in stock [2].',
    );
  });

  it('states every source’s facts when the question does not filter', () => {
    const answer = factAnswer(askedAttributes('What do noise cancelling headphones cost?'), found);
    expect(answer).toContain('Ortho Wireless Noise Cancelling Headset 165 costs 608.37 EUR [2].');
  });

  it('states a product found at two addresses once, citing both', () => {
    const mirror = { ...found[0]!, marker: 4 };
    const answer = factAnswer(askedAttributes('What do noise cancelling headphones cost?'), [found[0]!, mirror]);
    expect(answer).toBe('Ortho Noise Cancelling Over-Ear Headphones 117 costs 559.52 EUR [1][4].');
  });

  it('says none is in stock when none is', () => {
    const answer = factAnswer(askedAttributes('Which noise cancelling headphones are in stock?'), [found[1]!]);
    expect(answer).toBe('None of them is in stock [2].');
  });

  it('leaves out sources that are not about the subject, and gives null when none is', () => {
    const asked = askedAttributes('How much does the Kestrel smart watch cost?');
    expect(factAnswer(asked, found)).toBeNull();
    const watch = product(4, 'Kestrel Smart Watch 12', 199, 'InStock');
    expect(factAnswer(asked, [...found, watch])).toBe('Kestrel Smart Watch 12 costs 199 EUR [4].');
  });
});
