import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseHtml } from '../html/index.js';
import { intentFromSchema, intentRelevance } from './intent.js';
import { summarizeCrawl, summarizeText } from './summary.js';
import { sentencesOf } from './text.js';

const news = parseHtml(readFileSync(join(import.meta.dirname, 'fixtures', 'news-article.html'), 'utf8'), 'https://coastalherald.example/local/bridge');

describe('extractive summaries', () => {
  it('picks sentences from the document, in reading order, within the length cap', () => {
    const summary = summarizeText(news.text, 3, 600);
    expect(summary.length).toBeLessThanOrEqual(600);
    expect(summary).toMatch(/bridge/i);
    // The summary is whole sentences of the text, each later in the text than the one before.
    const pieces = sentencesOf(news.text);
    let rest = summary;
    let last = -1;
    let used = 0;
    while (rest) {
      const index = pieces.findIndex((p, i) => i > last && rest.startsWith(p));
      expect(index, `"${rest.slice(0, 60)}" is not the next sentence of the text`).toBeGreaterThan(last);
      rest = rest.slice(pieces[index]!.length).trimStart();
      last = index;
      used += 1;
    }
    expect(used).toBeGreaterThanOrEqual(2);
  });

  it('summarises a crawl from the leads of its documents without repeats', () => {
    const crawl = summarizeCrawl([
      { title: 'A', summary: 'The bridge reopened on Monday. It cost more.' },
      { title: 'B', summary: 'The bridge reopened on Monday. Another lead.' },
      { title: 'C', summary: 'Ferries change timetable in March.' },
    ]);
    expect(crawl).toBe('The bridge reopened on Monday. Ferries change timetable in March.');
  });
});

describe('intents', () => {
  it('derives a crawl intent naming the fields and the kind of page', () => {
    const intent = intentFromSchema({ price: 'The current selling price', brand: 'The manufacturer of the product', gtin: 'The EAN barcode number' });
    expect(intent).toMatch(/^Find product detail pages that state price, brand and gtin/);
    expect(intent).toMatch(/manufacturer/);
    expect(intent.length).toBeGreaterThanOrEqual(10);
    expect(intent.length).toBeLessThanOrEqual(2000);
  });

  it('scores relevance higher for a page about the intent than for one that is not', () => {
    expect(intentRelevance('harbour bridge restoration cost', news)).toBeGreaterThan(0.8);
    expect(intentRelevance('mirrorless camera lens reviews', news)).toBeLessThan(0.2);
  });
});
