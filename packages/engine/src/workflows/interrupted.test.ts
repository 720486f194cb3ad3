import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import Database from 'better-sqlite3';
import { startLocalWeb, type LocalWeb } from '@wvr/testkit';
import { createEngine } from '../engine.js';

let web: LocalWeb;
let dir: string;
beforeAll(async () => {
  // A crawl-delay keeps the patrol's crawl running long enough to kill its process in the middle.
  web = await startLocalWeb({ sizes: { articles: 30 }, crawlDelaySeconds: { news: 0.3 } });
  dir = mkdtempSync(join(tmpdir(), 'wvr-interrupted-'));
});
afterAll(async () => {
  await web.close();
  rmSync(dir, { recursive: true, force: true });
});

const WORKER = fileURLToPath(new URL('../testing/worker.child.ts', import.meta.url));

function read<T>(dbPath: string, sql: string, ...params: unknown[]): T[] {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

describe('a process killed in the middle of a scheduled crawl patrol', () => {
  it('leaves an execution recorded as interrupted, its reservation given back, its slot run once and its webhook queued', async () => {
    const dbPath = join(dir, 'wvr.db');
    const setup = createEngine({ dbPath, allowPrivateNetwork: true, secret: 'test-secret' });
    const p = setup.accounts.localPrincipal(await setup.accounts.ensureUser({ email: 'crash@x.test' }));
    await setup.credits.grant(p.userId, 1_000);
    const { workflow } = await setup.workflows.create(p, {
      name: 'news watch',
      workflow_type: 'crawl',
      operation_config: { urls: [web.news], max_pages: 12, expansion: 'internal' },
      scheduled_for: new Date(Date.now() + 500).toISOString(),
      notification_config: { webhook_url: `${web.lab}/hook` },
    });
    await setup.close();

    const child = spawn(process.execPath, ['--import', 'tsx', WORKER, dbPath], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    try {
      await vi.waitFor(() => expect(read<{ n: number }>(dbPath, "select pages_fetched as n from crawls where status = 'running'")[0]?.n ?? 0).toBeGreaterThanOrEqual(2), { timeout: 30_000, interval: 20 });
    } finally {
      child.kill('SIGKILL');
    }
    expect(await exited).toBe('SIGKILL');
    const openAtKill = read<{ operation: string }>(dbPath, "select operation from credit_reservations where status = 'open'").map((r) => r.operation);
    expect(openAtKill).toContain('workflow_execution');

    const engine = createEngine({ dbPath, allowPrivateNetwork: true, secret: 'test-secret' });
    try {
      expect(await engine.workflows.recoverInterrupted()).toBe(1);
      expect(await engine.workflows.recoverInterrupted()).toBe(0);
      const { data } = await engine.workflows.executions(p, workflow!.id);
      expect(data).toHaveLength(1);
      expect(data[0]).toMatchObject({ status: 'failed', trigger: 'schedule', error: { code: 'execution_interrupted' }, credits: { consumed: 0 } });
      expect(data[0]!.notification.events).toEqual(['workflow.execution.failed']);
      expect(read(dbPath, "select id from notify_deliveries where kind = 'workflow.execution.failed'")).toHaveLength(1);

      // The patrol's crawl is a job of its own: it resumes and settles its own reservation.
      await engine.jobs.drain();
      expect(read(dbPath, "select id from credit_reservations where status = 'open'")).toEqual([]);
      const [sum] = read<{ total: number }>(dbPath, 'select sum(amount) as total from credit_ledger where user_id = ?', p.userId);
      expect(await engine.credits.balance(p.userId)).toBe(sum!.total);
      const [crawl] = read<{ status: string; pages: number; credits: number }>(dbPath, 'select status, pages_fetched as pages, credits_used as credits from crawls');
      expect(crawl).toMatchObject({ status: 'completed', pages: 12 });
    } finally {
      await engine.close();
    }
  }, 90_000);
});
