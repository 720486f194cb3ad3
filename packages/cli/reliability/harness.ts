import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { spawnCli } from '../src/testing.js';

/**
 * The reliability suite's parts: real `wvr serve` and `wvr worker` processes on one data folder,
 * killed with SIGKILL and restarted; a webhook receiver on loopback; and the invariants read
 * straight from the SQLite file afterwards.
 */
export interface Proc {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
}

const ENV = { WVR_ALLOW_PRIVATE_NETWORK: '1' };

/** The bundled CLI global-setup.ts built, or the sources under tsx when a test file runs on its own. */
function cli(args: string[]): ChildProcess {
  const built = process.env.WVR_RELIABILITY_CLI;
  if (!built) return spawnCli(args, ENV);
  return spawn(process.execPath, [built, ...args], {
    env: { ...process.env, WVR_API_URL: '', WVR_API_TOKEN: '', WVR_USER: '', ...ENV },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function track(child: ChildProcess): Proc {
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { child, exited, stderr: () => stderr };
}

/** `wvr serve` on a free port; resolves with its URL once it listens. */
export async function serve(data: string, args: string[] = []): Promise<Proc & { url: string }> {
  const proc = track(cli(['--data', data, '--json', 'serve', '--port', '0', ...args]));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    proc.child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.includes('"url"'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    void proc.exited.then(({ code, signal }) => reject(new Error(`wvr serve exited (${code ?? signal}) before listening: ${proc.stderr()}`)));
  });
  return { ...proc, url };
}

/** `wvr worker`; resolves once it has started. */
export async function worker(data: string): Promise<Proc> {
  const proc = track(cli(['--data', data, '--json', 'worker']));
  await new Promise<void>((resolve, reject) => {
    proc.child.stdout!.once('data', () => resolve());
    void proc.exited.then(({ code, signal }) => reject(new Error(`wvr worker exited (${code ?? signal}): ${proc.stderr()}`)));
  });
  return proc;
}

export async function kill(proc: Proc, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  proc.child.kill(signal);
  await proc.exited;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function api<T = Record<string, unknown>>(base: string, token: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as T };
}

/** A webhook receiver on loopback that counts deliveries per webhook-id. */
export interface Receiver {
  url: string;
  received: Map<string, number>;
  close(): Promise<void>;
}

export async function receiver(): Promise<Receiver> {
  const received = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const id = String((req.headers as IncomingHttpHeaders)['webhook-id'] ?? '');
    req.resume();
    req.on('end', () => {
      received.set(id, (received.get(id) ?? 0) + 1);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** What the suite asserts and prints, read from the data folder's SQLite file. */
export interface Invariants {
  pages: number;
  duplicates: number;
  chargedNotStored: number;
  openReservations: number;
  ledgerMismatches: number;
  runningExecutions: number;
  crawls: Record<string, number>;
}

export function invariants(data: string): Invariants {
  const db = new Database(join(data, 'wvr.db'), { readonly: true, fileMustExist: true });
  try {
    const one = <T>(sql: string) => db.prepare(sql).get() as T;
    const pages = one<{ n: number }>('SELECT count(*) AS n FROM crawl_documents').n;
    // The same page stored twice in one crawl, by its URL or by the URL it ended at.
    const duplicates = one<{ n: number }>(
      'SELECT coalesce(sum(n - 1), 0) AS n FROM (SELECT count(*) AS n FROM crawl_documents GROUP BY crawl_id, final_url HAVING count(*) > 1)',
    ).n;
    // Every page charged is a page stored: a crawl's credits equal the credits of its documents.
    const chargedNotStored = one<{ n: number }>(
      'SELECT count(*) AS n FROM crawls c WHERE c.credits_used != (SELECT coalesce(sum(d.credits), 0) FROM crawl_documents d WHERE d.crawl_id = c.id)',
    ).n;
    const openReservations = one<{ n: number }>("SELECT count(*) AS n FROM credit_reservations WHERE status = 'open'").n;
    // The ledger is the balance; a reservation's hold must be matched by what was used and given back.
    const ledgerMismatches = one<{ n: number }>(
      `SELECT count(*) AS n FROM credit_reservations r
       WHERE r.status != 'open' AND (SELECT coalesce(sum(amount), 0) FROM credit_ledger l WHERE l.reservation_id = r.id) != -r.used`,
    ).n;
    const runningExecutions = one<{ n: number }>("SELECT count(*) AS n FROM workflow_executions WHERE status = 'running'").n;
    const crawls = Object.fromEntries((db.prepare('SELECT status, count(*) AS n FROM crawls GROUP BY status').all() as { status: string; n: number }[]).map((r) => [r.status, r.n]));
    return { pages, duplicates, chargedNotStored, openReservations, ledgerMismatches, runningExecutions, crawls };
  } finally {
    db.close();
  }
}

export function query<T>(data: string, sql: string, ...params: unknown[]): T[] {
  const db = new Database(join(data, 'wvr.db'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

/** One line per figure, so CI logs show them. */
export function report(title: string, figures: Record<string, unknown>): void {
  process.stdout.write(`\n[reliability] ${title}: ${Object.entries(figures).map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`).join(' ')}\n`);
}

/** Where the folder's work stands: pages stored, crawls by status, executions recorded, webhooks pending. */
export function progress(data: string): Record<string, unknown> {
  const facts = invariants(data);
  const executions = query<{ status: string; n: number }>(data, 'SELECT status, count(*) AS n FROM workflow_executions GROUP BY status');
  const pending = query<{ n: number }>(data, "SELECT count(*) AS n FROM notify_deliveries WHERE status = 'pending'")[0]!.n;
  return { pages: facts.pages, crawls: facts.crawls, executions: Object.fromEntries(executions.map((e) => [e.status, e.n])), webhooks_pending: pending, open_reservations: facts.openReservations };
}
