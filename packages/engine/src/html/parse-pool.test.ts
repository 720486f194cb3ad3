import { afterEach, describe, expect, it } from 'vitest';
import { ParsePool } from './parse-pool.js';
import { parseHtml } from './parse.js';

const page = (i: number) =>
  `<!doctype html><html lang="en"><head><title>Page ${i}</title></head><body><nav><a href="/">Home</a></nav>` +
  `<main><h1>Heading ${i}</h1><p>Paragraph ${i} of the page, long enough to be read as the main text of an article about page ${i}.</p>` +
  `<ul><li><a href="/next/${i}">Next ${i}</a></li></ul></main></body></html>`;

let pool: ParsePool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe('ParsePool', () => {
  it('reads pages in worker threads exactly as parseHtml does in place', async () => {
    pool = new ParsePool({ size: 2 });
    // More pages than workers: the rest wait for a free reader.
    const urls = Array.from({ length: 9 }, (_, i) => `http://site.test/p/${i}`);
    const read = await Promise.all(urls.map((url, i) => pool!.parse(page(i), url)));
    urls.forEach((url, i) => expect(read[i]).toEqual(parseHtml(page(i), url)));
    expect(read[3]!.links.map((l) => l.url)).toContain('http://site.test/next/3');
  });

  it('reads in place when it has no workers', async () => {
    pool = new ParsePool({ size: 0 });
    await expect(pool.parse(page(1), 'http://site.test/')).resolves.toEqual(parseHtml(page(1), 'http://site.test/'));
  });
});
