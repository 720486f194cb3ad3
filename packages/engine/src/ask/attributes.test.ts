import { describe, expect, it } from 'vitest';
import { askedAttributes, extractionSchema } from './attributes.js';

describe('askedAttributes', () => {
  it('finds price and availability in a "which … are in stock, what do they cost" question, with the subject words', () => {
    const asked = askedAttributes('Which noise cancelling headphones are in stock, and what do they cost?');
    expect(asked.attributes).toEqual(['price', 'availability']);
    expect(asked.inStockOnly).toBe(true);
    expect(asked.subject).toEqual(['nois', 'cancel', 'headphon']);
  });

  it('reads rating, brand, publication date and author questions', () => {
    expect(askedAttributes('How are the Kestrel watches rated, and who makes the strap?').attributes).toEqual(['rating', 'brand']);
    expect(askedAttributes('Who wrote the harbour article and when was it published?').attributes).toEqual(['date_published', 'author']);
    expect(askedAttributes('How much is the Norda kettle?').attributes).toEqual(['price']);
  });

  it('asks for nothing when the question names no attribute, and treats a bare "when" as about the subject', () => {
    expect(askedAttributes('noise cancelling headphones battery life').attributes).toEqual([]);
    expect(askedAttributes('When is the Nightjar launch scheduled?').attributes).toEqual([]);
  });

  it('only lists in-stock items when the question asks which ones are in stock', () => {
    expect(askedAttributes('Is the Ortho headset in stock?').inStockOnly).toBe(false);
  });
});

describe('extractionSchema', () => {
  it('asks for the name always, the currency with a price and the review count with a rating', () => {
    expect(Object.keys(extractionSchema(['price', 'rating']))).toEqual(['name', 'price', 'currency', 'rating', 'review_count']);
  });
});
