import he from 'he';
import { describe, expect, it } from 'vitest';
import { charCode, COMMON_NAMED, decodeAttribute, decodeEntities, isWhiteSpace } from './chars.js';

describe('entity decoding', () => {
  it('replaces the common references itself and leaves the rest to he, with he\'s result either way', () => {
    expect(decodeEntities('a &lt;b&gt; &amp;&amp; &quot;c&quot; &#39;d&#x27; e&nbsp;f')).toBe('a <b> && "c" \'d\' e\u00a0f');
    // Past the common forms: legacy names without `;`, C1 and out-of-range numbers, unknown names.
    for (const raw of ['&amp &lt', '&#128;', '&#0;', '&#xD800;', '&#1114112;', '&sect;', '&ampx;', 'R&D', '&#;', '&AMP;']) {
      expect(decodeEntities(raw)).toBe(he.decode(raw));
    }
    // Every name decoded here, alone, in a sentence, and as an attribute value.
    expect(COMMON_NAMED.size).toBeGreaterThan(100);
    for (const name of COMMON_NAMED.keys()) {
      for (const raw of [`&${name};`, `a&${name};b &amp; c`]) {
        expect(decodeEntities(raw), raw).toBe(he.decode(raw));
        expect(decodeAttribute(raw), raw).toBe(he.decode(raw, { isAttributeValue: true }));
      }
    }
    // Generated strings of entity parts, as text and as attribute values (`?a=1&sect=2` keeps its `&sect` there).
    const parts = ['&', ';', '#', 'x', 'amp', 'lt', 'gt', 'quot', 'apos', 'nbsp', 'sect', 'not', 'notin', 'hellip', 'Auml', 'rsquo', '39', '128', '160', '55296', 'fffe', '10FFFF', '9', '13', '=', 'a', ' '];
    let seed = 7;
    const next = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed % n);
    for (let i = 0; i < 20_000; i++) {
      let raw = '';
      for (let j = 1 + next(7); j > 0; j--) raw += parts[next(parts.length)];
      expect(decodeEntities(raw)).toBe(he.decode(raw));
      expect(decodeAttribute(raw)).toBe(he.decode(raw, { isAttributeValue: true }));
    }
  });
});

describe('isWhiteSpace', () => {
  it('agrees with `\\s` on every UTF-16 code unit', () => {
    const differ: number[] = [];
    for (let c = 0; c <= 0xffff; c++) {
      const char = String.fromCharCode(c);
      if (isWhiteSpace(c) !== /\s/.test(char)) differ.push(c);
    }
    expect(differ).toEqual([]);
  });
});

describe('charCode', () => {
  it('reads what charCodeAt reads, on strings of every kind and past their ends', () => {
    const long = 'Ünïcödé “quotes” — and plain words, '.repeat(4);
    const kinds = [long, long.slice(3, 90), 'plain ascii text, sliced or not'.slice(2), long.slice(0, 20) + 'joined', `${long.slice(0, 5)}x`, '', 'a'];
    for (const text of kinds) {
      for (let i = -1; i <= text.length; i++) expect(Object.is(charCode(text, i), text.charCodeAt(i))).toBe(true);
    }
  });
});
