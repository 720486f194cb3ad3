import { describe, expect, it } from 'vitest';
import { PRICE_PATTERN } from './concepts.js';

describe('PRICE_PATTERN', () => {
  it('finds prices with grouped thousands and with plain digits, currency before or after', () => {
    for (const [text, price] of [
      ['now EUR 2191.88 only', 'EUR 2191.88'],
      ['€1.299,00 incl. VAT', '€1.299,00'],
      ['1,299.00 € each', '1,299.00 €'],
      ['$12 shipping', '$12'],
      ['costs 1737.41 EUR today', '1737.41 EUR'],
      ['CHF 1 299.50', 'CHF 1 299.50'],
    ]) {
      expect(PRICE_PATTERN.exec(text!)?.[0]).toBe(price);
    }
  });

  it('ignores numbers with no currency', () => {
    expect(PRICE_PATTERN.exec('model 2191 released in 2026')).toBeNull();
  });
});
