import { describe, expect, it } from 'vitest';
import { parseAmount, parsePrice } from './price.js';

describe('prices as shops write them', () => {
  it.each([
    ['$1,299.99', '1299.99', '$', 'USD'],
    ['1.299,00 €', '1299', '€', 'EUR'],
    ['2 499,50 zł', '2499.5', 'zł', 'PLN'],
    ['5\u00a0550 Kč', '5550', 'Kč', 'CZK'],
    ["CHF 1'250.–", '1250', 'CHF', 'CHF'],
    ['Ab 49,- EUR', '49', 'EUR', 'EUR'],
    ['US$:7.25', '7.25', 'US$', 'USD'],
    ['R$ 89,90', '89.9', 'R$', 'BRL'],
    ['1 200 руб.', '1200', 'руб.', 'RUB'],
    ['350 грн', '350', 'грн', 'UAH'],
    ['Pris från 99 kr', '99', 'kr', null],
    ['From $14.50 to $19.00', '14.5', '$', 'USD'],
    ['Now £8.75', '8.75', '£', 'GBP'],
    ['¥12,800', '12800', '¥', 'JPY'],
    ['0.35 BHD', '0.35', 'BHD', 'BHD'],
    ['.99', '0.99', null, null],
    ['SGD$ 12.00', '12', 'SGD$', null],
    ['NZD $55.10', '55.1', 'NZD', 'NZD'],
    ['$74. 50', '74.5', '$', 'USD'],
    ['Von 12 bis 30 €', '12', '€', 'EUR'],
    ['2 500 рублей', '2500', 'руб', 'RUB'],
    ['3 500 FCFA', '3500', 'FCFA', 'XOF'],
  ])('%s → %s %s', (text, amount, currency, code) => {
    const parsed = parsePrice(text);
    expect(parsed.amountText).toBe(amount);
    expect(parsed.currency).toBe(currency);
    expect(parsed.code).toBe(code);
  });

  it('takes the currency from text near the price when the price text has none', () => {
    expect(parsePrice('18,40', 'Preis in EUR')).toMatchObject({ amountText: '18.4', currency: 'EUR', code: 'EUR' });
  });

  it('reads the amount beside the currency sign, not a count or a size elsewhere in the text', () => {
    expect(parsePrice('Pack of 3 for €12,00').amountText).toBe('12');
  });

  it('does not read a currency out of a word', () => {
    expect(parsePrice('Kreuzband 12').currency).toBeNull();
  });

  it('has no amount where the text has no number', () => {
    expect(parsePrice('Out of stock')).toMatchObject({ amount: null, currency: null });
  });

  it('tells decimal marks from thousands groups', () => {
    expect(parseAmount('1.234.567')).toBe('1234567');
    expect(parseAmount('1,234.5')).toBe('1234.5');
    expect(parseAmount('12,345')).toBe('12345');
    expect(parseAmount('34.992001')).toBe('34.992001');
    expect(parseAmount('9,5')).toBe('9.5');
  });
});
