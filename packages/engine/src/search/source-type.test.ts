import { describe, expect, it } from 'vitest';
import { classifySource, isAuthority } from './source-type.js';

const ev = (url: string, extra: { title?: string; description?: string; schemaTypes?: string[] } = {}) => ({
  url,
  domain: new URL(url).hostname.replace(/^www\./, ''),
  title: extra.title ?? '',
  description: extra.description ?? '',
  schemaTypes: extra.schemaTypes ?? [],
});

describe('classifySource', () => {
  it('trusts a known domain or an academic TLD', () => {
    expect(classifySource(ev('https://arxiv.org/abs/2401.00001'))).toBe('academic');
    expect(classifySource(ev('https://cs.stanford.edu/people/x'))).toBe('academic');
    expect(classifySource(ev('https://www.reuters.com/markets/x'))).toBe('news');
    expect(classifySource(ev('https://stackoverflow.com/questions/1/x'))).toBe('community');
  });

  it('reads JSON-LD types on unknown domains', () => {
    expect(classifySource(ev('http://127.0.0.1:4000/item-7', { schemaTypes: ['Product'] }))).toBe('commercial');
    expect(classifySource(ev('http://127.0.0.1:4001/x', { schemaTypes: ['NewsArticle'] }))).toBe('news');
  });

  it('falls back to URL and text cues, and says mixed when nothing points anywhere', () => {
    expect(classifySource(ev('http://shop.test/products/lamp', { description: 'Add to cart, free shipping' }))).toBe('commercial');
    expect(classifySource(ev('http://paper.test/2024/05/12/story'))).toBe('news');
    expect(classifySource(ev('http://plain.test/about', { title: 'About us' }))).toBe('mixed');
  });

  it('says mixed on a tie between types', () => {
    // News: URL (2) + text cue (1) = 3; commercial: JSON-LD Product (3).
    expect(classifySource(ev('http://x.test/news/a', { description: 'reported', schemaTypes: ['Product'] }))).toBe('mixed');
  });
});

describe('isAuthority', () => {
  it('aligns authorities with the wanted type only', () => {
    expect(isAuthority('arxiv.org', 'academic')).toBe(true);
    expect(isAuthority('arxiv.org', 'news')).toBe(false);
    expect(isAuthority('data.nasa.gov', undefined)).toBe(true);
    expect(isAuthority('blog.example.com', undefined)).toBe(false);
  });
});
