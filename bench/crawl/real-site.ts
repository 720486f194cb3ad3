/**
 * A real built website for bench/crawl: a directory (or a .tar.gz of one, unpacked into a temp
 * folder at run time) served by a tiny static file server on loopback, in the parent process.
 * Nothing of the site is part of the repository; the path comes from the command line.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize, relative, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
};

export interface RealSite {
  origin: string;
  /** Every HTML page of the site as a URL, index first: the raw loop's list. */
  pages: string[];
  /** HTML bytes on disk, for the MB/s figure. */
  htmlBytes: number;
  requests: number;
  /** Body bytes served so far (every file type). */
  bytes: number;
  close(): Promise<void>;
}

/** A site on disk: its folder, its HTML files, and how to remove what unpacking it made. */
export interface SiteFiles {
  root: string;
  /** Every HTML file of the site, in the order the folder lists them. */
  files: string[];
  remove(): void;
}

/** Unpacks `path` when it is a tarball (its one top folder is the site) and lists its HTML files. */
export function siteFiles(path: string): SiteFiles {
  let root = path;
  let temp: string | undefined;
  if (/\.(tar\.gz|tgz)$/.test(path)) {
    temp = mkdtempSync(join(tmpdir(), 'wvr-bench-site-'));
    execFileSync('tar', ['xzf', path, '-C', temp]);
    const [top] = readdirSync(temp);
    root = join(temp, top!);
  }
  const remove = () => {
    if (temp) rmSync(temp, { recursive: true, force: true });
  };
  return { root, files: walk(root).filter((f) => /\.html?$/.test(f)), remove };
}

/** Unpacks `path` when it is a tarball, serves it, lists its pages. */
export async function serveSite(path: string): Promise<RealSite> {
  const { root, files, remove } = siteFiles(path);
  const htmlBytes = files.reduce((sum, f) => sum + statSync(f).size, 0);
  let requests = 0;
  let bytes = 0;
  const server = createServer((req, res) => {
    requests++;
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    let file = normalize(join(root, pathname));
    if (!file.startsWith(root)) return void res.writeHead(403).end();
    if (pathname.endsWith('/')) file = join(file, 'index.html');
    readFile(file).then(
      (body) => (bytes += body.length) && res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'content-length': body.length }).end(body),
      () => res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>not found</body></html>'),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const url = (f: string) => `${origin}/${relative(root, f).split(sep).join('/')}`;
  const index = join(root, 'index.html');
  const pages = [index, ...files.filter((f) => f !== index)].map(url);
  return {
    origin,
    pages,
    htmlBytes,
    get requests() {
      return requests;
    },
    get bytes() {
      return bytes;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      remove();
    },
  };
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}
