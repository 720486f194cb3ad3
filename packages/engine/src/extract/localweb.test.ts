import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalWeb, type LocalWeb } from '@wvr/testkit';
import { parseHtml } from '../html/index.js';
import { extractHeuristic } from './heuristic.js';
import { emptyScore, precision, recall, scoreFields, type FieldScore } from './scoring.js';

/** The local web's catalogue and news pages over real HTTP, scored against the generators' truth. */
let web: LocalWeb;
beforeAll(async () => {
  web = await startLocalWeb({ seed: 7, sizes: { products: 120, articles: 40 } });
});
afterAll(() => web.close());

const get = async (url: string) => {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return response.text();
};

const report = (what: string, score: FieldScore) => {
  console.log(`${what}: ${score.predicted} predicted, ${score.expected} expected, precision ${precision(score).toFixed(3)}, recall ${recall(score).toFixed(3)}`);
  for (const miss of score.misses.slice(0, 8)) console.log('  miss', JSON.stringify(miss));
};

describe('heuristic extraction on the local web', () => {
  it('extracts product fields from catalogue pages of every markup style', async () => {
    const schema = {
      name: 'The product name',
      price: 'The current price as a number',
      currency: 'The currency code of the price',
      availability: 'The stock availability of the product',
      sku: 'The SKU of the product',
      gtin: 'The EAN or GTIN barcode number',
      brand: 'The brand of the product',
      rating: 'The average customer rating out of 5',
    };
    const score = emptyScore();
    const markups = new Set<string>();
    for (const url of web.truth.productUrls().slice(0, 32)) {
      const truth = web.truth.page(url);
      if (truth?.kind !== 'product') throw new Error(`no truth for ${url}`);
      const p = truth.product;
      markups.add(p.markup);
      const html = await get(url);
      const { data } = extractHeuristic({ page: parseHtml(html, url), html }, schema);
      // DOM-only pages print no rating, so it is not expected there.
      const rating = html.includes(String(p.rating)) ? p.rating : null;
      scoreFields(data, { name: p.name, price: p.price, currency: p.currency, availability: p.availability, sku: p.sku, gtin: p.gtin13, brand: p.brand, rating }, score, p.markup);
    }
    report('catalogue products', score);
    expect(markups.size).toBe(4);
    expect(precision(score)).toBeGreaterThanOrEqual(0.95);
    expect(recall(score)).toBeGreaterThanOrEqual(0.95);
  });

  it('extracts article fields from news pages, bylines included', async () => {
    const schema = {
      headline: 'The headline of the article',
      author: 'The name of the author',
      published: 'The date the article was published',
      section: 'The news section of the article',
    };
    const score = emptyScore();
    for (const url of web.truth.articleUrls().slice(0, 24)) {
      const truth = web.truth.page(url);
      if (truth?.kind !== 'article') throw new Error(`no truth for ${url}`);
      const a = truth.article;
      const html = await get(url);
      const { data } = extractHeuristic({ page: parseHtml(html, url), html }, schema);
      scoreFields(data, { headline: a.headline, author: a.author, published: a.published.slice(0, 10), section: a.sectionName }, score, a.authorIn);
    }
    report('news articles', score);
    expect(precision(score)).toBeGreaterThanOrEqual(0.95);
    expect(recall(score)).toBeGreaterThanOrEqual(0.95);
  });
});
