import { describe, expect, it } from 'vitest';
import { compileGlob, domainOf, inScope, junkReason, looksLikeHub, patternFilter, siteOf } from './url-rules.js';

describe('junkReason', () => {
  it.each([
    ['https://shop.test/login', 'non_content_path'],
    ['https://shop.test/cart', 'non_content_path'],
    ['https://shop.test/account/sign-in?next=/x', 'non_content_path'],
    ['https://shop.test/product/1/share', 'non_content_path'],
    ['https://shop.test/print/article-9', 'non_content_path'],
    ['https://shop.test/calendar/2026/03', 'non_content_path'],
    ['https://shop.test/item;jsessionid=ABC123', 'session_id'],
    ['https://shop.test/item?sessionid=77', 'non_content_parameter'],
    ['https://shop.test/item?utm_source=mail', 'non_content_parameter'],
    ['https://shop.test/logo.png', 'binary_file'],
  ])('drops %s as %s', (url, reason) => {
    expect(junkReason(url)).toBe(reason);
  });

  it('keeps content pages, including ones whose words merely contain junk words', () => {
    for (const url of ['https://shop.test/product/12-cart-wheel', 'https://news.test/article/5-printing-history', 'https://shop.test/category/laptops?page=2']) {
      expect(junkReason(url)).toBeNull();
    }
  });
});

describe('patterns', () => {
  it('treats * as any run of characters and matches path and query unless the pattern has a scheme', () => {
    expect(compileGlob('/blog/*')('https://a.test/blog/2026/post')).toBe(true);
    expect(compileGlob('/blog/*')('https://a.test/news/blog/x')).toBe(false);
    expect(compileGlob('*?page=?')('https://a.test/c?page=3')).toBe(true);
    expect(compileGlob('https://a.test/*')('https://b.test/x')).toBe(false);
    expect(compileGlob('/a.b')('https://a.test/axb')).toBe(false);
  });

  it('needs one include match when includes are given and no exclude match', () => {
    const filter = patternFilter(['/product/*'], ['*-refurbished']);
    expect(filter.allows('https://a.test/product/1-phone')).toBe(true);
    expect(filter.allows('https://a.test/product/2-phone-refurbished')).toBe(false);
    expect(filter.allows('https://a.test/about')).toBe(false);
    expect(patternFilter().allows('https://a.test/anything')).toBe(true);
  });
});

describe('inScope', () => {
  const seeds = new Set(['a.test']);
  it('follows internal links for internal, others for external, all for both, none for none', () => {
    expect(inScope('internal', seeds, 'https://www.a.test/x')).toBe(true);
    expect(inScope('internal', seeds, 'https://b.test/x')).toBe(false);
    expect(inScope('external', seeds, 'https://b.test/x')).toBe(true);
    expect(inScope('external', seeds, 'https://a.test/x')).toBe(false);
    expect(inScope('both', seeds, 'https://b.test/x')).toBe(true);
    expect(inScope('none', seeds, 'https://a.test/x')).toBe(false);
  });

  it('treats servers on one host but different ports as different sites', () => {
    const local = new Set([siteOf('http://127.0.0.1:4001/')]);
    expect(inScope('internal', local, 'http://127.0.0.1:4001/product/1')).toBe(true);
    expect(inScope('internal', local, 'http://127.0.0.1:4002/article/1')).toBe(false);
    expect(inScope('external', local, 'http://127.0.0.1:4002/article/1')).toBe(true);
    expect(inScope('internal', local, 'http://127.0.0.1/')).toBe(false);
  });
});

describe('siteOf', () => {
  it('keeps a non-default port, drops the default one and a leading www', () => {
    expect(siteOf('http://www.a.test:8080/x')).toBe('a.test:8080');
    expect(siteOf('http://a.test:80/x')).toBe('a.test');
    expect(siteOf('https://www.a.test:443/x')).toBe('a.test');
    expect(siteOf('http://a.test/x')).toBe(siteOf('https://a.test/y'));
    expect(siteOf('not a url')).toBe('');
  });

  it('leaves the port out of the domain that domain_authority is keyed by', () => {
    expect(domainOf('http://www.a.test:4001/')).toBe('a.test');
    expect(domainOf('http://127.0.0.1:4001/')).toBe('127.0.0.1');
  });
});

describe('looksLikeHub', () => {
  it('recognises listings, categories, pagination and the home page', () => {
    expect(looksLikeHub('https://a.test/category/laptops', false)).toBe(true);
    expect(looksLikeHub('https://a.test/x?page=2', false)).toBe(true);
    expect(looksLikeHub('https://a.test/', false)).toBe(true);
    expect(looksLikeHub('https://a.test/product/9-slim-laptop', false)).toBe(false);
    expect(looksLikeHub('https://a.test/product/9-slim-laptop', true)).toBe(true);
  });
});
