import { describe, expect, it } from 'vitest';
import { canonicalOf, kindOf } from './content.js';

const bytes = (text: string) => new Uint8Array(Buffer.from(text));

describe('kindOf', () => {
  it.each([
    ['text/html; charset=utf-8', 'html'],
    ['application/xhtml+xml', 'html'],
    ['application/pdf', 'pdf'],
    ['application/ld+json', 'json'],
    ['application/rss+xml', 'xml'],
    ['text/csv', 'text'],
    ['image/png', 'binary'],
  ] as const)('maps %s to %s', (type, kind) => expect(kindOf(type, bytes('x'))).toBe(kind));

  it('sniffs a PDF and an HTML page served without a type', () => {
    expect(kindOf('', bytes('%PDF-1.7\n'))).toBe('pdf');
    expect(kindOf('application/octet-stream', bytes('  <!DOCTYPE html><html>'))).toBe('html');
    expect(kindOf('', bytes('\u0000\u0001'))).toBe('binary');
  });
});

describe('canonicalOf', () => {
  it('resolves a relative canonical against the page and normalises it', () => {
    const html = '<html><head><link href="/a?utm_source=x&b=1" rel="canonical"></head></html>';
    expect(canonicalOf(html, 'http://example.com/page')).toBe('http://example.com/a?b=1');
  });

  it('ignores a canonical link outside the head', () => {
    expect(canonicalOf('<head></head><body><link rel="canonical" href="/x"></body>', 'http://example.com/')).toBeNull();
  });
});
