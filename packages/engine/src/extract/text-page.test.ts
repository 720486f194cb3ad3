import { describe, expect, it } from 'vitest';
import { extractHeuristic } from './heuristic.js';
import { textPage } from './text-page.js';

describe('textPage', () => {
  it('turns blank-line paragraphs into the page text, escaping markup-like characters', () => {
    const { page, html } = textPage('First <b>part</b> & more.\n\nSecond part.', 'https://docs.example/a.txt', 'A & B');
    expect(page.title).toBe('A & B');
    expect(page.text).toContain('First <b>part</b> & more.');
    expect(page.text).toContain('Second part.');
    expect(html).toContain('<p>Second part.</p>');
  });

  it('has no title when none is given', () => {
    expect(textPage('Only text here.', 'https://docs.example/b.txt').page.title).toBeNull();
  });

  it('gives extraction input whose sentences the heuristic reads', () => {
    const input = textPage('The author is Jane Doe.\n\nIt was written in spring.', 'https://docs.example/c.txt', 'Notes');
    expect(extractHeuristic(input, { author: 'The author of the note' }).data.author).toBe('Jane Doe');
  });
});
