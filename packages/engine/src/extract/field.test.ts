import { describe, expect, it } from 'vitest';
import { planField } from './field.js';

describe('reading a field name and instruction', () => {
  it('takes the concept from the name and the type it implies', () => {
    expect(planField('productPrice', 'What it costs today')).toMatchObject({ concept: { id: 'price' }, type: 'number' });
    expect(planField('published_on', 'Publication day of the post')).toMatchObject({ concept: { id: 'date_published' }, type: 'date' });
    expect(planField('tags', 'Topics the post is filed under')).toMatchObject({ concept: { id: 'tags' }, type: 'list' });
  });

  it('reads booleans from the name or the instruction', () => {
    expect(planField('in_stock', 'Whether the item can be bought now')).toMatchObject({ concept: { id: 'availability' }, type: 'boolean', booleanOf: 'in_stock' });
    expect(planField('is_refurbished', 'Is this a refurbished unit?').type).toBe('boolean');
  });

  it('uses the instruction only as a hint, never its broad words', () => {
    const weight = planField('weight', 'The weight of the product with its unit');
    expect(weight.concept).toBeUndefined();
    expect(weight.hint).toBeUndefined();
    expect(weight.nameWords).toEqual(['weight']);
    expect(planField('cost_info', 'How much the membership costs per month').concept?.id).toBe('price');
    expect(planField('contact', 'The e-mail address to write to').hint?.id).toBe('email');
  });

  it('types unknown fields from the instruction', () => {
    expect(planField('seats', 'How many guests the room seats').type).toBe('number');
    expect(planField('speakers', 'List all the speakers of the event').type).toBe('list');
  });
});
