import { describe, expect, it } from 'vitest';
import { decodeText, headerCharset } from './charset.js';

const latin1 = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));

describe('decodeText', () => {
  it('prefers a byte-order mark over a contradicting header', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from('né')]);
    expect(decodeText(bytes, 'text/html; charset=iso-8859-1', true)).toEqual({ text: 'né', charset: 'utf-8' });
  });

  it('prefers the header over a meta tag', () => {
    const bytes = latin1('<meta charset="shift_jis"><p>é</p>');
    expect(decodeText(bytes, 'text/html; charset=ISO-8859-1', true).charset).toBe('windows-1252');
  });

  it('reads <meta http-equiv> when the header has no charset', () => {
    const bytes = latin1('<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"><p>café</p>');
    expect(decodeText(bytes, 'text/html', true).text).toContain('café');
  });

  it('ignores a meta-looking string in a non-HTML body', () => {
    expect(decodeText(latin1('<meta charset="iso-8859-1">'), 'text/plain', false).charset).toBe('utf-8');
  });

  it('falls back to UTF-8 for an unknown label', () => {
    expect(decodeText(new Uint8Array(Buffer.from('ok')), 'text/html; charset=x-martian', true).charset).toBe('utf-8');
  });

  it('reads valid multi-byte UTF-8 as UTF-8 even when a legacy charset is declared', () => {
    const bytes = new Uint8Array(Buffer.from('<meta charset="gb2312"><p>新闻 café</p>'));
    expect(decodeText(bytes, 'text/html', true)).toMatchObject({ charset: 'utf-8', text: expect.stringContaining('新闻 café') });
  });

  it('reads declared UTF-8 whose bytes mostly fail to decode as windows-1252', () => {
    const bytes = new Uint8Array([...latin1('<meta charset="utf-8"><p>Grüße aus Köln '), 0x97, 0x20, 0x93, ...latin1('quoted'), 0x94, ...latin1('</p>')]);
    expect(decodeText(bytes, 'text/html', true)).toEqual({ charset: 'windows-1252', text: '<meta charset="utf-8"><p>Grüße aus Köln — “quoted”</p>' });
  });

  it('keeps UTF-8 when only a stray byte is broken', () => {
    const bytes = new Uint8Array([...Buffer.from('<p>Grüße aus Köln, naïve café '), 0xff, ...Buffer.from('</p>')]);
    expect(decodeText(bytes, 'text/html', true).charset).toBe('utf-8');
  });

  it('parses quoted charset parameters', () => {
    expect(headerCharset('text/html; charset="Shift_JIS"')).toBe('Shift_JIS');
  });
});
