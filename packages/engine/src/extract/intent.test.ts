import { describe, expect, it } from 'vitest';
import { parseHtml } from '../html/index.js';
import { intentRelevance } from './intent.js';

const page = (title: string, body: string) => parseHtml(`<html><head><title>${title}</title></head><body><main><p>${body}</p></main></body></html>`, 'https://shop.example/x');

describe('intent relevance', () => {
  it('meets the forms of a word the search index meets: "pricing" finds a page about prices', () => {
    const prices = page('Kettle prices this week', 'The price of the Veltro kettle fell by ten percent.');
    expect(intentRelevance('kettle pricing', prices)).toBe(1);
  });

  it('meets "cancelling" and "headphones" in a page that says "cancel" and "headphone"', () => {
    const headphone = page('Veltro headphone review', 'Noise cancel mode works well on this headphone.');
    // Every intent word found: headphone in the title (1), noise and cancel in the body (0.6 each).
    expect(intentRelevance('noise cancelling headphones', headphone)).toBe(0.73);
  });

  it('still scores an unrelated page low', () => {
    expect(intentRelevance('kettle pricing', page('Garden news', 'Roses bloom early this spring.'))).toBe(0);
  });
});
