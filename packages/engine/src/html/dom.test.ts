import { describe, expect, it } from 'vitest';
import { leadingText, parseDocument, textOf } from './dom.js';

describe('leadingText', () => {
  it('reads a leading text sample equal to the start of the whole text, without reading all of it', () => {
    const body = `<body>${Array.from({ length: 3000 }, (_, i) => `<p> word${i}  &amp; <b>more</b>\n</p>`).join('')}</body>`;
    const root = parseDocument(body);
    expect(leadingText(root, 5000)).toBe(textOf(root).slice(0, 5000));
    expect(leadingText(parseDocument('<p> short <br>text </p>'), 5000)).toBe('short text');
  });
});
