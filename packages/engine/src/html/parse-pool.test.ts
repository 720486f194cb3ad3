import { afterEach, describe, expect, it, vi } from 'vitest';
import { ParsePool } from './parse-pool.js';
import { parseHtml, takeTree } from './parse.js';

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
  /** A reader loads its code (here TypeScript, through tsx) before pages go to it: until then they are read in place. */
  const loadedReader = async (p: ParsePool) => {
    await p.parse(page(0), 'http://site.test/0');
    await vi.waitFor(() => expect(p.loaded).toBe(1), { timeout: 10_000 });
  };

  it('reads pages in worker threads exactly as parseHtml does in place', async () => {
    pool = new ParsePool({ size: 2 });
    await loadedReader(pool);
    // More pages than workers: the rest wait for a free reader.
    const urls = Array.from({ length: 9 }, (_, i) => `http://site.test/p/${i}`);
    const read = await Promise.all(urls.map((url, i) => pool!.parse(page(i), url)));
    urls.forEach((url, i) => expect(read[i]).toEqual(parseHtml(page(i), url)));
    expect(read[3]!.links.map((l) => l.url)).toContain('http://site.test/next/3');
    // The reading's options reach the worker.
    const lean = await pool.parse(page(1), urls[1]!, { linkContext: false });
    expect(lean).toEqual(parseHtml(page(1), urls[1]!, { linkContext: false }));
    expect(lean.links.every((l) => l.context === '')).toBe(true);
    expect(read[1]!.links.some((l) => l.context !== '')).toBe(true);
  });

  it('reads a page in place while its first reader loads, and sends the next ones to the reader once it has', async () => {
    pool = new ParsePool({ size: 1 });
    const first = await pool.parse(page(1), 'http://site.test/1');
    // Read here, before the reader it started has loaded its code (a reader takes hundreds of ms to; this page, a few).
    expect(pool.readers).toBe(1);
    expect(pool.loaded).toBe(0);
    expect(first).toEqual(parseHtml(page(1), 'http://site.test/1'));
    // Handed on as a reader's page would be: its tree is not kept with it.
    expect(takeTree(first, page(1))).toBeNull();
    await vi.waitFor(() => expect(pool!.loaded).toBe(1), { timeout: 10_000 });
    await expect(pool.parse(page(2), 'http://site.test/2')).resolves.toEqual(parseHtml(page(2), 'http://site.test/2'));
  });

  it('reads a burst of pages that come while its reader loads one a turn of the event loop, not all at once', async () => {
    pool = new ParsePool({ size: 1 });
    const urls = [1, 2, 3].map((i) => `http://site.test/${i}`);
    const reads = urls.map((url, i) => pool!.parse(page(i + 1), url));
    const settled: number[] = [];
    reads.forEach((read, i) => void read.then(() => settled.push(i)));
    // One turn: the first page is read, the others wait, so fetches and answers get in between (the reader takes
    // hundreds of ms to load under tsx; a page here, a few).
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.resolve();
    expect(pool.loaded).toBe(0);
    expect(settled).toEqual([0]);
    const read = await Promise.all(reads);
    urls.forEach((url, i) => expect(read[i]).toEqual(parseHtml(page(i + 1), url)));
  });

  it('lets its idle readers go once no crawl holds it (a busy one finishes its page first), and starts them again', async () => {
    pool = new ParsePool({ size: 2, idleMs: 0 });
    await loadedReader(pool);
    const letGo = pool.hold();
    await Promise.all([1, 2].map((i) => pool!.parse(page(i), `http://site.test/${i}`)));
    expect(pool.readers).toBe(2);
    const busy = pool.parse(page(3), 'http://site.test/3');
    letGo();
    expect(pool.readers).toBe(1);
    await expect(busy).resolves.toEqual(parseHtml(page(3), 'http://site.test/3'));
    await expect(pool.parse(page(4), 'http://site.test/4')).resolves.toEqual(parseHtml(page(4), 'http://site.test/4'));
    expect(pool.readers).toBe(1);
  });

  it('keeps its readers idleMs after the last hold, for a crawl that starts meanwhile', async () => {
    pool = new ParsePool({ size: 1, idleMs: 200 });
    pool.hold()();
    await pool.parse(page(1), 'http://site.test/1');
    pool.hold()();
    const again = pool.hold();
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Held again within the 200 ms: kept.
    expect(pool.readers).toBe(1);
    again();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(pool.readers).toBe(0);
  });

  it('reads in place when it has no workers', async () => {
    pool = new ParsePool({ size: 0 });
    await expect(pool.parse(page(1), 'http://site.test/')).resolves.toEqual(parseHtml(page(1), 'http://site.test/'));
  });
});
