import { describe, expect, it } from 'vitest';
import { parseHtml } from '../html/index.js';
import { extractHeuristic } from './heuristic.js';
import { identifierFromUrl, identifierOf } from './identifier.js';

/**
 * Product pages written here, one per rule, in the shapes real shop templates take: no markup
 * to lean on unless the case is about markup. The schema is the one shopping extractors are
 * judged on (issue 12).
 */
const SCHEMA = {
  name: 'the name of the main product',
  price: 'the current selling price of the main product, as a number',
  currency: 'the currency of the price, as an ISO 4217 code',
  availability: 'whether the main product is in stock or out of stock',
  sku: 'the SKU or product identifier code of the main product',
  brand: 'the brand of the main product',
};

const extract = (body: string, url = 'https://shop.example/p/lamp', head = '') => {
  const html = `<!doctype html><html><head><title>Brass Lamp | Shop</title>${head}</head><body>${body}</body></html>`;
  return extractHeuristic({ page: parseHtml(html, url), html }, SCHEMA).data;
};

const related = (prices: string[]) =>
  `<section class="more"><h2>You may also like</h2><ul>${prices.map((p, i) => `<li class="card"><a href="/p/${i}">Other lamp ${i}</a><span class="price">${p}</span></li>`).join('')}</ul></section>`;

describe('the main product price on real-looking markup', () => {
  it('takes the sale price over the struck-through list price', () => {
    const data = extract('<h1>Brass Lamp</h1><div class="price-box"><del class="price">$120.00</del> <span class="price">$89.00</span></div>');
    expect(data.price).toBe(89);
    expect(data.currency).toBe('USD');
  });

  it('reads the price beside the title, not the prices of a related-products carousel above or below it', () => {
    const data = extract(`${related(['$15.00', '$22.00', '$9.50'])}<h1>Brass Lamp</h1><p class="product-price">€ 1.249,00</p>${related(['€ 40,00', '€ 55,00', '€ 12,00'])}`);
    expect(data.price).toBe(1249);
    expect(data.currency).toBe('EUR');
  });

  it('keeps a lone "regular price" when the page shows no other price', () => {
    expect(extract('<h1>Brass Lamp</h1><div class="regular-price">£64.50</div>').price).toBe(64.5);
  });

  it('does not read savings, instalments or shipping as the price', () => {
    const data = extract('<h1>Brass Lamp</h1><span class="savings">You save $30.00</span><span class="monthly">$12.00/mo</span><span class="sale-price">$99.00</span><span class="shipping">Shipping $5.00</span>');
    expect(data.price).toBe(99);
  });

  it('prefers the selling price a page states over markup that carries the list price', () => {
    const head = '<meta property="og:price:standard_amount" content="150.00"><meta property="product:price:amount" content="120.00"><script type="application/ld+json">{"@type":"Product","name":"Brass Lamp","offers":{"@type":"Offer","price":"150.00","priceCurrency":"USD"}}</script>';
    expect(extract('<h1>Brass Lamp</h1>', undefined, head).price).toBe(120);
  });

  it('finds no price on a page that shows none, whatever its navigation advertises', () => {
    expect(extract('<nav><a href="/under-25">$25 &amp; Under</a></nav><h1>Brass Lamp</h1><p>This item is no longer available.</p>').price).toBeNull();
  });
});

describe('product identifiers', () => {
  it('takes the label off a shown code and reads table rows such as "Model Number"', () => {
    expect(extract('<h1>Brass Lamp</h1><p>Item # 4471023</p>').sku).toBe('4471023');
    expect(extract('<h1>Brass Lamp</h1><table><tr><td>Model Number</td><td>BL-BRS</td></tr></table>').sku).toBe('BL-BRS');
  });

  it('prefers the productID labelled sku among several and falls back to the MPN of the markup', () => {
    expect(identifierOf(['mpn:77A-1', 'sku:LMP77'])).toBe('LMP77');
    const head = '<script type="application/ld+json">{"@type":"Product","name":"Brass Lamp","mpn":"HX-2210"}</script>';
    expect(extract('<h1>Brass Lamp</h1>', undefined, head).sku).toBe('HX-2210');
  });

  it('reads a product code from the URL when the page shows none', () => {
    expect(extract('<h1>Brass Lamp</h1>', 'https://shop.example/lighting/brass-lamp-prodid-558812').sku).toBe('558812');
    expect(identifierFromUrl('https://shop.example/item.aspx?sku=AB-9921')).toBe('AB-9921');
    expect(identifierFromUrl('https://shop.example/about-us')).toBeNull();
  });

  it('refuses words that are not codes', () => {
    expect(identifierOf('VIEW ALL')).toBeNull();
    expect(identifierOf('Sleepy Blue - $99 USD')).toBeNull();
  });
});

describe('availability', () => {
  it('answers a field named availability with the schema.org state, even when asked "whether"', () => {
    const head = '<script type="application/ld+json">{"@type":"Product","name":"Brass Lamp","offers":{"@type":"Offer","price":"10","availability":"https://schema.org/LimitedAvailability"}}</script>';
    expect(extract('<h1>Brass Lamp</h1>', undefined, head).availability).toBe('LimitedAvailability');
  });

  it.each([
    ['<button type="submit">In den Warenkorb</button>', 'InStock'],
    ['<button>Ajouter au panier</button>', 'InStock'],
    ['<button class="btn" disabled>Agotado</button>', 'OutOfStock'],
    ['<button>Notify me when it is back</button><button disabled>Add to cart</button>', 'OutOfStock'],
  ])('reads the buy button %s as %s', (button, state) => {
    expect(extract(`<h1>Brass Lamp</h1><p class="product-price">$10.00</p>${button}`).availability).toBe(state);
  });

  it('reads stock words in several languages, negative forms first', () => {
    expect(extract('<h1>Brass Lamp</h1><dl><dt>Verfügbarkeit</dt><dd>Nicht lieferbar</dd></dl>').availability).toBe('OutOfStock');
    expect(extract('<h1>Brass Lamp</h1><dl><dt>Disponibilité</dt><dd>Épuisé</dd></dl>').availability).toBe('OutOfStock');
  });
});

describe('name and brand', () => {
  it('gives one name and one brand when the markup repeats them', () => {
    const body = '<div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">Brass Lamp</h1><span itemprop="name">Brass Lamp</span><span itemprop="brand">Lumo</span><span itemprop="brand">Lumo</span></div>';
    const data = extract(body);
    expect(data.name).toBe('Brass Lamp');
    expect(data.brand).toBe('Lumo');
  });
});
