import { Readable } from 'node:stream';
import { brotliCompressSync, constants as zlibConstants, createGzip, deflateSync, gzipSync } from 'node:zlib';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gone, html, notFound, text, type Handler, type Reply } from '../server.js';
import { PROXY_MARK_HEADER } from '../proxy.js';
import { labJpeg, labPdf, labPng, LAB_PDF_TEXT } from './lab-files.js';

export interface LabOptions {
  crawlDelaySeconds?: number;
}

export { LAB_PDF_TEXT };

/** Text the charset pages carry, so tests compare what the fetcher decoded against what was meant. */
export const LAB_TEXT = {
  latin1: 'Café crème brûlée à la française',
  shiftJis: 'こんにちは日本語',
  bom: 'Grüße aus Köln',
} as const;

/** Shift_JIS bytes of LAB_TEXT.shiftJis, written out because Node has no Shift_JIS encoder. */
const SHIFT_JIS_BYTES = [0x82, 0xb1, 0x82, 0xf1, 0x82, 0xc9, 0x82, 0xbf, 0x82, 0xcd, 0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea];

const MB = 1024 * 1024;
const page = (title: string, body: string, head = '') =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>${head}</head><body><h1>${title}</h1>${body}</body></html>`;
/** `?retry=N` sets Retry-After to N seconds (default 1); `?retry=none` leaves the header out. */
const retryAfter = (url: URL): Record<string, string> =>
  url.searchParams.get('retry') === 'none' ? {} : { 'retry-after': String(intParam(url, 'retry', 1)) };
const tooManyRequests = (url: URL): Reply => ({ status: 429, headers: retryAfter(url), body: page('Too many requests', '<p>Slow down.</p>') });
const redirect = (status: number, location: string): Reply => ({ status, headers: { location }, body: '' });
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const intParam = (url: URL, name: string, fallback: number) => {
  const value = Number.parseInt(url.searchParams.get(name) ?? '', 10);
  return Number.isFinite(value) && value >= 0 ? value : fallback;
};

/**
 * The fetcher's laboratory: one path per awkward behaviour of the real web (see the table in
 * docs/fetching.md). State that must survive between requests (the flaky counters) lives in
 * the returned handler, so two lab sites never share it.
 */
export function labSite(options: LabOptions = {}): Handler {
  const flakyCounts = new Map<string, number>();

  return async (url, req) => {
    const path = url.pathname;
    const origin = `http://${req.headers.host ?? 'localhost'}`;
    switch (path) {
      case '/':
        return html(page('Fetcher lab', LINKS.map((p) => `<a href="${p}">${p}</a>`).join('\n')));
      case '/robots.txt':
        return text(robots(options));
      case '/target':
        return html(page('Redirect target', '<p>You arrived.</p>'));
      case '/redirect/to':
        return redirect(302, url.searchParams.get('url') ?? '/');
      case '/redirect/loop/a':
        return redirect(302, '/redirect/loop/b');
      case '/redirect/loop/b':
        return redirect(302, '/redirect/loop/a');
      case '/status/404':
        return notFound();
      case '/status/410':
        return gone();
      case '/status/500':
        return html(page('Server error', '<p>Something broke.</p>'), 500);
      case '/status/503':
        return { status: 503, headers: retryAfter(url), body: page('Unavailable', '<p>Try later.</p>') };
      case '/status/429':
        return tooManyRequests(url);
      case '/flaky': {
        const key = url.searchParams.get('key') ?? 'default';
        const seen = flakyCounts.get(key) ?? 0;
        flakyCounts.set(key, seen + 1);
        if (seen < intParam(url, 'times', 2)) {
          return tooManyRequests(url);
        }
        return html(page('Flaky page', `<p>Answered after ${seen} refusals.</p>`));
      }
      case '/blocked':
        if (req.headers[PROXY_MARK_HEADER]) return html(page('Members area', '<p>Welcome, residential visitor.</p>'));
        return { status: 403, body: page('Access denied', '<p>Access denied. Please complete the captcha to continue.</p><div class="g-recaptcha"></div>') };
      case '/slow/headers':
        await wait(intParam(url, 'ms', 3_000));
        return html(page('Slow headers', '<p>Finally.</p>'));
      case '/slow/body':
        return { stream: (res) => trickle(res, intParam(url, 'ms', 3_000)) };
      case '/large':
        return { headers: { 'content-type': 'text/html; charset=utf-8' }, stream: (res) => streamBytes(res, intParam(url, 'mb', 20) * MB) };
      case '/gzip':
        return { headers: { 'content-encoding': 'gzip' }, body: gzipSync(page('Gzip page', '<p>Compressed with gzip.</p>')) };
      case '/brotli':
        return { headers: { 'content-encoding': 'br' }, body: brotliCompressSync(page('Brotli page', '<p>Compressed with brotli.</p>')) };
      case '/deflate':
        return { headers: { 'content-encoding': 'deflate' }, body: deflateSync(page('Deflate page', '<p>Compressed with deflate.</p>')) };
      case '/bomb':
        return { headers: { 'content-encoding': 'gzip' }, stream: (res) => gzipBomb(res, req, intParam(url, 'mb', 1024) * MB) };
      case '/charset/latin1':
        return { headers: { 'content-type': 'text/html; charset=ISO-8859-1' }, body: Buffer.from(page(LAB_TEXT.latin1, `<p>${LAB_TEXT.latin1}</p>`).replace(' charset="utf-8"', ''), 'latin1') };
      case '/charset/latin1-meta':
        return {
          headers: { 'content-type': 'text/html' },
          body: Buffer.from(`<!doctype html><html><head><meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"><title>Latin</title></head><body><p>${LAB_TEXT.latin1}</p></body></html>`, 'latin1'),
        };
      case '/charset/shift_jis':
        return {
          headers: { 'content-type': 'text/html; charset=Shift_JIS' },
          body: Buffer.concat([Buffer.from('<!doctype html><html><head><title>SJIS</title></head><body><p>'), Buffer.from(SHIFT_JIS_BYTES), Buffer.from('</p></body></html>')]),
        };
      case '/charset/bom':
        return { headers: { 'content-type': 'text/html' }, body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`<!doctype html><title>BOM</title><p>${LAB_TEXT.bom}</p>`)]) };
      case '/doc.pdf':
        return { headers: { 'content-type': 'application/pdf' }, body: labPdf() };
      case '/image.png':
        return { headers: { 'content-type': 'image/png' }, body: labPng() };
      case '/image.jpg':
        return { headers: { 'content-type': 'image/jpeg' }, body: labJpeg() };
      case '/data.json':
        return text(JSON.stringify({ lab: true, items: [1, 2, 3] }), 'application/json');
    }
    if (path.startsWith('/private/')) return html(page('Private', '<p>Robots should never see this.</p>'));
    const status = /^\/redirect\/(301|302|307|308)$/.exec(path)?.[1];
    if (status) return redirect(Number(status), '/target');
    const chain = /^\/redirect\/chain\/(\d+)$/.exec(path)?.[1];
    if (chain !== undefined) return redirect(302, Number(chain) <= 1 ? '/target' : `/redirect/chain/${Number(chain) - 1}`);
    const calendar = /^\/calendar\/(\d{1,6})\/(\d{1,2})$/.exec(path);
    if (calendar) return html(calendarPage(Number(calendar[1]), Number(calendar[2])));
    if (DUPLICATES.has(path + url.search) || (path === '/article' && url.search !== '')) {
      return html(page('The one article', '<p>Same words under many addresses.</p>', `<link rel="canonical" href="${origin}/article">`));
    }
    return notFound();
  };
}

const LINKS = [
  '/robots.txt', '/private/secret', '/redirect/301', '/redirect/302', '/redirect/308', '/redirect/chain/5', '/redirect/loop/a',
  '/status/404', '/status/410', '/status/500', '/status/503', '/status/429', '/flaky?times=2', '/blocked', '/slow/headers',
  '/slow/body', '/large', '/gzip', '/brotli', '/deflate', '/bomb', '/charset/latin1', '/charset/latin1-meta', '/charset/shift_jis',
  '/charset/bom', '/doc.pdf', '/image.png', '/image.jpg', '/calendar/2026/1', '/article', '/article/', '/article?utm_source=lab',
  '/index.php?p=article',
];

/** The same article under several addresses; each declares the canonical one. */
const DUPLICATES = new Set(['/article', '/article/', '/index.php?p=article', '/print/article']);

function robots(options: LabOptions): string {
  const lines = ['User-agent: evilbot', 'Disallow: /', '', 'User-agent: *', 'Disallow: /private/', 'Allow: /private/open$'];
  if (options.crawlDelaySeconds !== undefined) lines.push(`Crawl-delay: ${options.crawlDelaySeconds}`);
  return `${lines.join('\n')}\n`;
}

/** An endless calendar: every month links to the next and previous one, forever. */
function calendarPage(year: number, month: number): string {
  const next = month === 12 ? [year + 1, 1] : [year, month + 1];
  const previous = month === 1 ? [year - 1, 12] : [year, month - 1];
  const days = Array.from({ length: 28 }, (_, i) => `<a href="/calendar/${year}/${month}?day=${i + 1}">${i + 1}</a>`).join(' ');
  return page(`Events ${year}-${month}`, `<p>No events.</p><p>${days}</p><a href="/calendar/${previous[0]}/${previous[1]}">Previous</a> <a href="/calendar/${next[0]}/${next[1]}">Next</a>`);
}

function trickle(res: ServerResponse, totalMs: number): void {
  const chunks = 10;
  let sent = 0;
  res.write('<!doctype html><title>Trickle</title><p>');
  const timer = setInterval(() => {
    if (res.destroyed) return clearInterval(timer);
    sent += 1;
    res.write(`chunk ${sent} `);
    if (sent === chunks) {
      clearInterval(timer);
      res.end('</p>');
    }
  }, totalMs / chunks);
  res.on('close', () => clearInterval(timer));
}

function streamBytes(res: ServerResponse, total: number): void {
  const chunk = Buffer.alloc(64 * 1024, 'a');
  let left = total;
  const source = new Readable({
    read() {
      if (left <= 0) return this.push(null);
      const size = Math.min(chunk.length, left);
      left -= size;
      this.push(size === chunk.length ? chunk : chunk.subarray(0, size));
    },
  });
  source.pipe(res);
  res.on('close', () => source.destroy());
}

/** Zeros gzipped on the fly: a few hundred kilobytes on the wire that inflate to `total` bytes. */
function gzipBomb(res: ServerResponse, req: IncomingMessage, total: number): void {
  const zeros = Buffer.alloc(256 * 1024);
  let left = total;
  const source = new Readable({
    read() {
      if (left <= 0) return this.push(null);
      left -= zeros.length;
      this.push(zeros);
    },
  });
  const gzip = createGzip({ level: zlibConstants.Z_BEST_COMPRESSION });
  source.pipe(gzip).pipe(res);
  const stop = () => {
    source.destroy();
    gzip.destroy();
  };
  res.on('close', stop);
  req.on('close', stop);
}
