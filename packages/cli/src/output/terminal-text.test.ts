import { describe, expect, it } from 'vitest';
import { terminalData, terminalJson, terminalText } from './terminal-text.js';

describe('text from the web on its way to a terminal', () => {
  it('shows control characters as their pictures, and keeps line feeds, tabs and all other text', () => {
    expect(terminalText('a\u001b[31mb\u0007c\r\u0000\u007f\u009b')).toBe('a␛[31mb␇c␍␀␡\ufffd');
    expect(terminalText('line one\n\tline two — déjà vu 漢字 🙂')).toBe('line one\n\tline two — déjà vu 漢字 🙂');
  });

  it('writes them as \\u escapes in JSON, which then reads back the same', () => {
    const value = { title: 'x\u001b[2J\u009b\u007fy', n: 1 };
    const safe = terminalJson(JSON.stringify(value, null, 2));
    expect(safe).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(JSON.parse(safe)).toEqual(value);
  });

  it('makes every string of a view\'s data safe, at any depth, and leaves the rest as it is', () => {
    const at = new Date(0);
    expect(terminalData({ best: [{ title: 'a\u001bb', importance: 0.5 }], at, note: null })).toEqual({ best: [{ title: 'a␛b', importance: 0.5 }], at, note: null });
  });
});
