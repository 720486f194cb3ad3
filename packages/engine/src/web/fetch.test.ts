import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAB_PDF_TEXT, LAB_TEXT } from '@wvr/testkit';
import { openLab, type Lab } from './testing.js';

let lab: Lab;
const get = (path: string, extra: { ignoreRobots?: boolean } = {}) => lab.engine.web.fetch({ url: lab.origin + path, ...extra });

beforeAll(async () => {
  lab = await openLab({}, { userAgent: 'wvr-test/9.9', fetchLimits: { maxBodyBytes: 2 * 1024 * 1024, maxRedirects: 4, headersTimeoutMs: 300, totalTimeoutMs: 1_000 } });
});
afterAll(() => lab.dispose());

describe('redirects', () => {
  it.each([301, 302, 308])('follows a %i to its target and records the hop', async (status) => {
    const page = await get(`/redirect/${status}`);
    expect(page.error).toBeUndefined();
    expect(page.status).toBe(200);
    expect(page.url).toBe(`${lab.origin}/target`);
    expect(page.redirects).toEqual([`${lab.origin}/target`]);
    expect(page.body).toContain('You arrived');
  });

  it('follows a chain up to the maximum', async () => {
    const page = await get('/redirect/chain/4');
    expect(page.status).toBe(200);
    expect(page.redirects).toHaveLength(4);
  });

  it('stops a chain longer than the maximum with too_many_redirects', async () => {
    const before = lab.hits('/redirect/chain/3').length;
    const page = await get('/redirect/chain/8');
    expect(page.error?.code).toBe('too_many_redirects');
    expect(page.redirects.at(-1)).toBe(`${lab.origin}/redirect/chain/4`);
    expect(lab.hits('/redirect/chain/3')).toHaveLength(before);
  });

  it('stops a redirect loop the first time a URL comes back', async () => {
    const page = await get('/redirect/loop/a');
    expect(page.error?.code).toBe('redirect_loop');
    expect(lab.hits('/redirect/loop/a')).toHaveLength(1);
    expect(lab.hits('/redirect/loop/b')).toHaveLength(1);
  });
});

describe('status codes', () => {
  it.each([404, 410, 500])('reports a %i as an http_error value with its status', async (status) => {
    const page = await get(`/status/${status}`);
    expect(page.status).toBe(status);
    expect(page.error?.code).toBe('http_error');
  });
});

describe('size, time and compression limits', () => {
  it('stops reading a body over the size cap', async () => {
    const page = await get('/large?mb=20');
    expect(page.error?.code).toBe('body_too_large');
    expect(page.body).toBeNull();
  });

  it('stops a gzip bomb long before it inflates', async () => {
    const page = await get('/bomb?mb=1024');
    expect(page.error?.code).toBe('decompression_bomb');
    expect(page.error?.message).toMatch(/inflated \d+x/);
  });

  it.each([
    ['/gzip', 'Compressed with gzip.'],
    ['/brotli', 'Compressed with brotli.'],
    ['/deflate', 'Compressed with deflate.'],
  ])('decompresses %s', async (path, expected) => {
    const page = await get(path);
    expect(page.error).toBeUndefined();
    expect(page.body).toContain(expected);
  });

  it('gives up on a server that is slow to send headers', async () => {
    const page = await get('/slow/headers?ms=2000');
    expect(page.error?.code).toBe('timeout');
  });

  it('gives up on a body that trickles past the total timeout', async () => {
    const page = await get('/slow/body?ms=4000');
    expect(page.error?.code).toBe('timeout');
  });
});

describe('charsets', () => {
  it('decodes ISO-8859-1 declared in the Content-Type header', async () => {
    const page = await get('/charset/latin1');
    expect(page.charset).toBe('windows-1252');
    expect(page.body).toContain(LAB_TEXT.latin1);
  });

  it('decodes ISO-8859-1 declared only in a meta tag', async () => {
    const page = await get('/charset/latin1-meta');
    expect(page.charset).toBe('windows-1252');
    expect(page.body).toContain(LAB_TEXT.latin1);
  });

  it('decodes Shift_JIS', async () => {
    const page = await get('/charset/shift_jis');
    expect(page.charset).toBe('shift_jis');
    expect(page.body).toContain(LAB_TEXT.shiftJis);
  });

  it('recognises UTF-8 from a byte-order mark and strips the mark', async () => {
    const page = await get('/charset/bom');
    expect(page.charset).toBe('utf-8');
    expect(page.body).toContain(LAB_TEXT.bom);
    expect(page.body?.charCodeAt(0)).not.toBe(0xfeff);
  });
});

describe('content kinds', () => {
  it('extracts the text of a PDF', async () => {
    const page = await get('/doc.pdf');
    expect(page.kind).toBe('pdf');
    expect(page.body).toContain(LAB_PDF_TEXT);
  });

  it.each(['/image.png', '/image.jpg'])('records %s as binary without a body', async (path) => {
    const page = await get(path);
    expect(page.kind).toBe('binary');
    expect(page.body).toBeNull();
    expect(page.bytes).toBeGreaterThan(0);
  });

  it('labels JSON', async () => {
    const page = await get('/data.json');
    expect(page.kind).toBe('json');
    expect(JSON.parse(page.body ?? '')).toEqual({ lab: true, items: [1, 2, 3] });
  });
});

describe('URLs', () => {
  it('normalises the requested URL (tracking parameters, fragment) and reads rel=canonical', async () => {
    const page = await get('/article?utm_source=news&b=2&a=1#top');
    expect(page.requestedUrl).toBe(`${lab.origin}/article?a=1&b=2`);
    expect(page.canonicalUrl).toBe(`${lab.origin}/article`);
  });

  it('gives every duplicate address the same canonical URL', async () => {
    const canonicals = await Promise.all(['/article/', '/index.php?p=article', '/print/article'].map(async (path) => (await get(path)).canonicalUrl));
    expect(new Set(canonicals)).toEqual(new Set([`${lab.origin}/article`]));
  });

  it('refuses a non-http scheme without throwing', async () => {
    const page = await lab.engine.web.fetch({ url: 'ftp://example.com/file' });
    expect(page.error?.code).toBe('unsupported_scheme');
  });

  it('sends the configured user agent', async () => {
    await get('/target?ua=1');
    expect(lab.hits('/target?ua=1')[0]?.userAgent).toBe('wvr-test/9.9');
  });
});
