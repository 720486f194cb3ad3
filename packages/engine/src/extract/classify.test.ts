import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalWeb, type LocalWeb } from '@wvr/testkit';
import { parseHtml } from '../html/index.js';
import { classifyPage, type DocumentType } from './classify.js';

let web: LocalWeb;
beforeAll(async () => {
  web = await startLocalWeb({ seed: 3, sizes: { products: 80, articles: 30, docsDepth: 2 } });
});
afterAll(() => web.close());

const classifyUrl = async (url: string) => {
  const html = await (await fetch(url)).text();
  return classifyPage(parseHtml(html, url), html);
};

describe('document classification', () => {
  it('labels local-web products, articles, listings, docs and home pages with their type', async () => {
    const cases: [string, DocumentType][] = [
      ...web.truth.productUrls().slice(0, 8).map((u): [string, DocumentType] => [u, 'product']),
      ...web.truth.articleUrls().slice(0, 8).map((u): [string, DocumentType] => [u, 'article']),
      ...web.truth.docUrls().slice(1, 6).map((u): [string, DocumentType] => [u, 'documentation']),
      [web.truth.listing('headphones')!.url, 'listing'],
      [web.truth.listing('laptops')!.url, 'listing'],
      [`${web.catalogue}/`, 'homepage'],
      [`${web.news}/`, 'homepage'],
    ];
    let right = 0;
    const wrong: string[] = [];
    for (const [url, expected] of cases) {
      const got = await classifyUrl(url);
      if (got.label === expected) right += 1;
      else wrong.push(`${url} → ${got.label} (${got.confidence}), expected ${expected}`);
      expect(got.confidence).toBeGreaterThan(0);
      expect(got.confidence).toBeLessThanOrEqual(1);
    }
    console.log(`classification accuracy ${right}/${cases.length}`, wrong);
    expect(right / cases.length).toBeGreaterThanOrEqual(0.9);
  });

  it('labels the platform fixtures: shop pages as products, posts and news as articles', () => {
    const label = (file: string, url: string) => {
      const html = readFileSync(join(import.meta.dirname, 'fixtures', file), 'utf8');
      return classifyPage(parseHtml(html, url), html).label;
    };
    expect(label('shopify-product.html', 'https://ridgeline.example/products/trailblazer')).toBe('product');
    expect(label('woocommerce-product.html', 'https://kaffee.example/produkt/aroma/')).toBe('product');
    expect(label('plain-shop-product.html', 'http://hartley.example/lamps/brass-desk-lamp.php')).toBe('product');
    expect(label('wordpress-post.html', 'https://pipelineblog.example/2026/01/cut-build-times/')).toBe('article');
    expect(label('news-article.html', 'https://coastalherald.example/local/2026/feb/03/bridge')).toBe('article');
  });

  it('recognises a privacy policy as legal', () => {
    const html = `<html><head><title>Privacy Policy – Example Ltd</title></head><body><main><h1>Privacy Policy</h1>
      <p>Example Ltd is the data controller for the personal data we process. We shall process personal data pursuant to the GDPR.</p>
      <p>Our liability is limited as set out below. This policy is governed by the governing law of England.</p></main></body></html>`;
    expect(classifyPage(parseHtml(html, 'https://example.com/privacy'), html).label).toBe('legal');
  });

  it('says other, with low confidence, when nothing points anywhere', () => {
    const html = '<html><body><p>Hello.</p></body></html>';
    const result = classifyPage(parseHtml(html, 'https://example.com/misc/x'), html);
    expect(result.label).toBe('other');
    expect(result.confidence).toBeLessThan(0.6);
  });
});
