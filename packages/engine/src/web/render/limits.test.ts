import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite, type RequestLogEntry, type Site } from '@wvr/testkit';
import { openTestEngine } from '../../testing/engine.js';

/**
 * The renderer's bounds, on a small site of application shells served here: images, fonts and
 * media refused without a request, the page timeout, the per-host politeness gate the plain
 * fetcher uses, and the context pool bounded by the memory budget.
 */
const shell = (script: string, head = '') =>
  `<!doctype html><html><head><meta charset="utf-8"><title>App</title>${head}</head><body><div id="app"></div><script>${script}</script></body></html>`;

const SHELLS: Record<string, string> = {
  // Asks for an image, a web font and a video, then writes its text from JSON.
  '/media': shell(
    `const app = document.getElementById('app');
     const img = document.createElement('img'); img.src = '/pixel.png'; app.append(img);
     const video = document.createElement('video'); video.src = '/clip.mp4'; video.autoplay = true; app.append(video);
     new FontFace('Brand', 'url(/brand.woff2)').load().catch(() => {});
     fetch('/media.json').then((r) => r.json()).then((d) => { const p = document.createElement('p'); p.textContent = d.text; app.append(p); });`,
  ),
  // Six requests to its own host at once: the politeness gate lets them through one host slot at a time.
  '/burst': shell(
    `const app = document.getElementById('app');
     Promise.all([1, 2, 3, 4, 5, 6].map((n) => fetch('/slow/' + n).then((r) => r.text()))).then((parts) => { app.textContent = 'burst done: ' + parts.join(' '); });`,
  ),
  '/plain': shell(`document.getElementById('app').textContent = 'plain app text';`),
};
// A synchronous script that never arrives: the load event never fires.
const HANGING = `<!doctype html><html><head><title>App</title><script src="/never.js"></script></head><body><div id="app"></div></body></html>`;

let site: Site;
const log: RequestLogEntry[] = [];
let inFlight = 0;
let peakInFlight = 0;

beforeAll(async () => {
  site = await startSite(
    '127.0.0.1',
    async (url) => {
      if (SHELLS[url.pathname]) return { body: SHELLS[url.pathname] };
      if (url.pathname === '/hang') return { body: HANGING };
      if (url.pathname === '/never.js') return { headers: { 'content-type': 'text/javascript' }, stream: () => undefined };
      if (url.pathname === '/media.json') return { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'media page text from JSON' }) };
      if (url.pathname.startsWith('/slow/')) {
        inFlight++;
        peakInFlight = Math.max(peakInFlight, inFlight);
        // Held long enough that ungated requests would overlap.
        await new Promise((resolve) => setTimeout(resolve, 150));
        inFlight--;
        return { headers: { 'content-type': 'text/plain' }, body: `part${url.pathname.slice(6)}` };
      }
      return { status: 404, body: 'not found' };
    },
    log,
  );
});
afterAll(async () => {
  await site?.close();
});

describe('the renderer’s bounds', () => {
  it('refuses images, fonts and media without requesting them, and still renders the text', async () => {
    const lab = openTestEngine({ allowPrivateNetwork: true });
    try {
      const page = await lab.engine.web.fetch({ url: `${site.origin}/media`, render: 'auto' });
      expect(page.rendering).toMatchObject({ rendered: true });
      expect(page.body).toContain('media page text from JSON');
      const asked = log.map((e) => e.path);
      expect(asked).toContain('/media.json');
      expect(asked.filter((p) => /pixel|clip|brand/.test(p))).toEqual([]);
      expect(lab.engine.web.renderStats().requests_blocked).toBeGreaterThanOrEqual(2);
    } finally {
      await lab.dispose();
    }
  }, 60_000);

  it('holds a rendered page’s requests to the per-host politeness gate (the test can fail: a wider gate overlaps them)', async () => {
    const burst = async (perHostConcurrency: number) => {
      peakInFlight = 0;
      const lab = openTestEngine({ allowPrivateNetwork: true, fetchLimits: { perHostConcurrency } });
      try {
        const page = await lab.engine.web.fetch({ url: `${site.origin}/burst`, render: 'always' });
        expect(page.body).toContain('burst done: part1 part2 part3 part4 part5 part6');
        return peakInFlight;
      } finally {
        await lab.dispose();
      }
    };
    expect(await burst(1)).toBe(1);
    expect(await burst(4)).toBeGreaterThan(1);
  }, 120_000);

  it('gives up on a page past its timeout: always fails with render_failed, auto keeps the static HTML with a note', async () => {
    const lab = openTestEngine({ allowPrivateNetwork: true, render: { pageTimeoutMs: 2_000 } });
    try {
      const always = await lab.engine.web.fetch({ url: `${site.origin}/hang`, render: 'always' });
      expect(always.error?.code).toBe('render_failed');
      expect(always.body).toBeNull();
      const auto = await lab.engine.web.fetch({ url: `${site.origin}/hang`, render: 'auto' });
      expect(auto.error).toBeUndefined();
      expect(auto.body).toContain('id="app"');
      expect(auto.rendering).toMatchObject({ mode: 'auto', rendered: false, note: expect.stringContaining('rendering failed') });
      expect(lab.engine.web.renderStats().render_failures).toBe(2);
    } finally {
      await lab.dispose();
    }
  }, 60_000);

  it('gives up on time even when the timeout lands while the tab is still being made (the test can fail: Playwright’s newPage never settles once its context closes)', async () => {
    // Timeouts of a few milliseconds land during the context's setup rather than on the page; one of them
    // used to close the context under a pending newPage, and that render (and its context slot) waited for good.
    for (const pageTimeoutMs of [1, 10, 20, 40, 80]) {
      const lab = openTestEngine({ allowPrivateNetwork: true, render: { pageTimeoutMs } });
      try {
        for (let round = 0; round < 2; round++) {
          const page = await lab.engine.web.fetch({ url: `${site.origin}/hang`, render: 'always' });
          expect(page.error?.code).toBe('render_failed');
        }
        expect(lab.engine.web.renderStats()).toMatchObject({ render_failures: 2, pages_rendered: 0 });
      } finally {
        await lab.dispose();
      }
    }
  }, 90_000);

  it.runIf(process.platform === 'linux')('lets go of a browser that stops answering: that render fails within the page’s time, the next starts a new browser', async () => {
    // The render after the hung browser opens a new browser's first context and page within this time; 3 s was not
    // always enough beside the rest of the suite on 2 cores (CI, 2026-11-27), so it is 8 s.
    const lab = openTestEngine({ allowPrivateNetwork: true, render: { pageTimeoutMs: 8_000 } });
    const stopped: number[] = [];
    try {
      const first = await lab.engine.web.fetch({ url: `${site.origin}/plain`, render: 'always' });
      expect(first.body).toContain('plain app text');
      stopped.push(...browserProcesses());
      expect(stopped).toHaveLength(1);
      // As a hung browser, or one the system stopped: alive, and silent.
      process.kill(stopped[0]!, 'SIGSTOP');
      const silent = await lab.engine.web.fetch({ url: `${site.origin}/plain`, render: 'always' });
      expect(silent.error).toMatchObject({ code: 'render_failed', message: expect.stringContaining('let go') });
      const next = await lab.engine.web.fetch({ url: `${site.origin}/plain`, render: 'always' });
      expect(next.body).toContain('plain app text');
      expect(lab.engine.web.renderStats()).toMatchObject({ browser_launches: 2, pages_rendered: 2, render_failures: 1 });
    } finally {
      for (const pid of stopped) process.kill(pid, 'SIGKILL');
      await lab.dispose();
    }
  }, 60_000);

  it('bounds the contexts by the memory budget: 120 MB is one context, however many are asked for', async () => {
    const lab = openTestEngine({ allowPrivateNetwork: true, render: { maxContexts: 4, memoryBudgetMb: 120 } });
    try {
      expect(lab.engine.web.renderStats().slots).toBe(1);
      const pages = await Promise.all([1, 2, 3].map(() => lab.engine.web.fetch({ url: `${site.origin}/plain`, render: 'always' })));
      expect(pages.every((p) => p.body?.includes('plain app text'))).toBe(true);
      expect(lab.engine.web.renderStats()).toMatchObject({ pages_rendered: 3, contexts_peak: 1 });
    } finally {
      await lab.dispose();
    }
    const wider = openTestEngine({ allowPrivateNetwork: true, render: { maxContexts: 4, memoryBudgetMb: 240 } });
    try {
      expect(wider.engine.web.renderStats().slots).toBeLessThanOrEqual(2);
    } finally {
      await wider.dispose();
    }
  }, 90_000);
});

/** The browsers this process started, from /proc: processes named chrom* whose parent is this one. */
function browserProcesses(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    const fields = /^\d+ \((.*)\) \S+ (\d+) /.exec(stat);
    if (fields && /chrom/i.test(fields[1]!) && Number(fields[2]) === process.pid) pids.push(Number(entry));
  }
  return pids;
}
