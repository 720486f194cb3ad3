import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseHtml } from '../html/index.js';
import { extractHeuristic } from './heuristic.js';
import { emptyScore, precision, recall, scoreFields } from './scoring.js';

/**
 * Pages written here after the markup of common platforms (Shopify, WooCommerce, WordPress with
 * Yoast, a news CMS, a Squarespace-like restaurant, a recipe plugin, a hand-written shop), each
 * with the schema a user would send and what a careful reader would answer. A null truth means
 * the page does not say: any value there counts against precision.
 */
interface Case {
  file: string;
  url: string;
  schema: Record<string, string>;
  truth: Record<string, unknown>;
}

const PRODUCT_SCHEMA = {
  product_name: 'The full name of the product',
  price: 'The current selling price as a number',
  currency: 'The ISO currency code of the price',
  in_stock: 'Whether the product is currently in stock',
  sku: 'The SKU or article number of the product',
  brand: 'The brand or manufacturer of the product',
  weight: 'The weight of the product with its unit',
  isbn: 'The ISBN of the book, if this is a book',
};

const ARTICLE_SCHEMA = {
  headline: 'The headline of the article',
  author: 'The name of the author or authors',
  published_date: 'The date the article was published',
  updated_date: 'When the article was last updated',
  section: 'The section or category of the article',
  tags: 'The list of tags or topics of the article',
  price: 'The price of the product being sold',
};

const CASES: Case[] = [
  {
    file: 'shopify-product.html',
    url: 'https://ridgeline-outfitters.example/products/trailblazer-45l-hiking-backpack',
    schema: { ...PRODUCT_SCHEMA, gtin: 'The barcode (GTIN, UPC or EAN) of the product', material: 'What the product is made of', capacity: 'The capacity of the pack in litres' },
    truth: { product_name: 'Trailblazer 45L Hiking Backpack', price: 189, currency: 'USD', in_stock: true, sku: 'RO-TB45-SLT', brand: 'Ridgeline', weight: '1.42 kg', isbn: null, gtin: '810043290117', material: '210D recycled ripstop nylon', capacity: '45 litres' },
  },
  {
    file: 'woocommerce-product.html',
    url: 'https://kaffeehaus-weber.example/produkt/espressokocher-aroma-6/',
    schema: { ...PRODUCT_SCHEMA, category: 'The shop category of the product', material: 'What the product is made of' },
    truth: { product_name: 'Espressokocher Aroma 6 Tassen', price: 39.9, currency: 'EUR', in_stock: true, sku: 'KW-AR6-ALU', brand: 'Bellanotte', weight: '0,62 kg', isbn: null, category: 'Zubereitung', material: 'Aluminium' },
  },
  {
    file: 'plain-shop-product.html',
    url: 'http://www.hartleyandsons.example/lamps/brass-desk-lamp.php',
    schema: { ...PRODUCT_SCHEMA, finish: 'The finish or colour of the lamp', height: 'How tall the lamp is', contact_email: 'The email address for questions', phone: 'The phone number of the shop' },
    truth: { product_name: 'Brass Desk Lamp', price: 64.5, currency: 'GBP', in_stock: false, sku: 'HS-DL-0042', brand: 'Hartley & Sons', weight: null, isbn: null, finish: 'Antique brass', height: '42 cm', contact_email: 'shop@hartleyandsons.example', phone: '0114 496 0321' },
  },
  {
    file: 'wordpress-post.html',
    url: 'https://pipelineblog.example/2026/01/cut-build-times-remote-caching/',
    schema: { ...ARTICLE_SCHEMA, publisher: 'The organisation that publishes the blog', word_count: 'The number of words in the article' },
    truth: { headline: 'How We Cut Our Build Times in Half with Remote Caching', author: 'Priya Raman', published_date: '2026-01-14', updated_date: '2026-01-20', section: 'Engineering', tags: ['CI', 'monorepo', 'caching'], price: null, publisher: 'Pipeline Labs', word_count: 1534 },
  },
  {
    file: 'news-article.html',
    url: 'https://coastalherald.example/local/2026/feb/03/harbour-bridge-reopens',
    schema: { ...ARTICLE_SCHEMA, image: 'The URL of the lead image', summary: 'A one-sentence summary of the story' },
    truth: { headline: 'Harbour bridge reopens after 18-month restoration', author: 'Tom Ellery, Grace Obi', published_date: '2026-02-03', updated_date: '2026-02-03', section: 'Local', tags: ['transport', 'heritage', 'infrastructure'], price: null, image: 'https://img.coastalherald.example/2026/02/bridge-reopen-1200.jpg', summary: 'The 1912 swing bridge carries traffic again after a £14.2m restoration that replaced its deck and rebuilt the turning mechanism.' },
  },
  {
    file: 'restaurant-contact.html',
    url: 'https://osteriaverde.example/contact',
    schema: { business_name: 'The name of the restaurant', phone: 'The phone number for reservations', email: 'The email address of the restaurant', city: 'The city where it is located', postal_code: 'The postal or ZIP code', rating: 'The average rating out of 5', review_count: 'How many reviews it has', author: 'The author of the page text' },
    truth: { business_name: 'Osteria Verde', phone: '+1-503-555-0142', email: 'ciao@osteriaverde.example', city: 'Portland', postal_code: '97210', rating: 4.6, review_count: 318, author: null },
  },
  {
    file: 'recipe.html',
    url: 'https://littlegreenkitchen.example/weeknight-chickpea-curry/',
    schema: { recipe_name: 'The name of the recipe', author: 'Who wrote the recipe', ingredients: 'The list of ingredients', total_time: 'The total time needed to cook', rating: 'The average star rating', calories: 'Calories per serving', published: 'Date the recipe was published' },
    truth: { recipe_name: 'Weeknight Chickpea Curry', author: 'Hannah Moore', ingredients: ['1 tbsp coconut oil', '1 onion, diced', '3 cloves garlic', '2 tbsp curry paste', '2 cans chickpeas, drained', '400 ml coconut milk', '2 handfuls spinach'], total_time: 'PT30M', rating: 4.85, calories: '412 kcal', published: '2025-11-02' },
  },
  // Written after the extractor was tuned on the pages above, and not tuned on since: the honest figure.
  {
    file: 'magento-product.html',
    url: 'https://peaksports.example/aero-trail-running-shoe-men.html',
    schema: { ...PRODUCT_SCHEMA, review_count: 'How many customer reviews there are', waterproof: 'Whether the shoe is waterproof', drop: 'The heel-to-toe drop of the shoe' },
    truth: { product_name: 'Aero Trail Running Shoe - Men', price: 89.95, currency: 'GBP', in_stock: true, sku: 'PS-AERO-M-42', brand: 'Aero', weight: '285 g (UK 8)', isbn: null, review_count: 27, waterproof: false, drop: '6 mm' },
  },
  {
    file: 'job-posting.html',
    url: 'https://northbeam.example/careers/senior-backend-engineer-go',
    schema: { job_title: 'The title of the job opening', company: 'The company that is hiring', city: 'The city of the job location', salary_min: 'The minimum yearly salary as a number', date_posted: 'When the job was posted', employment_type: 'Full-time, part-time or contract', contact_email: 'The email address for questions', author: 'The author of the posting' },
    truth: { job_title: 'Senior Backend Engineer (Go)', company: 'Northbeam Analytics', city: 'Lisbon', salary_min: 70000, date_posted: '2026-02-20', employment_type: 'FULL_TIME', contact_email: 'jobs@northbeam.example', author: null },
  },
];

const read = (file: string) => readFileSync(join(import.meta.dirname, 'fixtures', file), 'utf8');

describe('heuristic extraction on pages modelled on real platforms', () => {
  it('reaches field-level precision and recall floors across every page', () => {
    const total = emptyScore();
    for (const c of CASES) {
      const html = read(c.file);
      const { data } = extractHeuristic({ page: parseHtml(html, c.url), html }, c.schema);
      const own = scoreFields(data, c.truth, emptyScore(), c.file);
      scoreFields(data, c.truth, total, c.file);
      console.log(`${c.file.padEnd(26)} precision ${precision(own).toFixed(2)} recall ${recall(own).toFixed(2)}`);
    }
    console.log(`platform pages: ${total.predicted} predicted, ${total.expected} expected, precision ${precision(total).toFixed(3)}, recall ${recall(total).toFixed(3)}`);
    for (const miss of total.misses) console.log('  miss', JSON.stringify(miss));
    expect(precision(total)).toBeGreaterThanOrEqual(0.95);
    expect(recall(total)).toBeGreaterThanOrEqual(0.95);
  });

  it('takes JSON-LD over a conflicting visible price and reports where each value came from', () => {
    const html = read('shopify-product.html');
    const result = extractHeuristic({ page: parseHtml(html, CASES[0]!.url), html }, { price: 'The current selling price' });
    expect(result.fields.price).toEqual({ value: 189, confidence: 0.95, source: 'json_ld' });
  });

  it('follows @id references in a Yoast graph to the author name', () => {
    const html = read('wordpress-post.html');
    const { data } = extractHeuristic({ page: parseHtml(html, CASES[3]!.url), html }, { author: 'The author of the post' });
    expect(data.author).toBe('Priya Raman');
  });

  it('reads a European price from the sale price, not the struck-through one', () => {
    const html = read('woocommerce-product.html');
    const { fields } = extractHeuristic({ page: parseHtml(html, CASES[1]!.url), html }, { price: 'The current price of the item' });
    expect(fields.price).toMatchObject({ value: 39.9, source: 'dom_selector' });
  });

  it("reads the same fields from the page's own parse as from a fresh parse of its HTML", () => {
    for (const c of CASES) {
      const html = read(c.file);
      const page = parseHtml(html, c.url);
      // A spread copy carries no tree, so this extraction parses the HTML itself.
      const fresh = extractHeuristic({ page: { ...page }, html }, c.schema);
      expect(extractHeuristic({ page, html }, c.schema), c.file).toEqual(fresh);
    }
  });

  it('answers null with zero confidence when the page does not say', () => {
    const html = read('recipe.html');
    const { fields } = extractHeuristic({ page: parseHtml(html, CASES[6]!.url), html }, { isbn_number: 'The ISBN number of the book' });
    expect(fields.isbn_number).toEqual({ value: null, confidence: 0, source: null });
  });
});
