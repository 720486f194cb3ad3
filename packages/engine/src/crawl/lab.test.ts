import { afterEach, describe, expect, it } from 'vitest';
import { openLab, type Lab } from '../web/testing.js';
import type { CrawlDetail } from './responses.js';

let lab: Lab;
afterEach(async () => lab.dispose());

describe('crawling the lab', () => {
  it('survives redirects, loops, errors, binary files, duplicates and the calendar trap', async () => {
    lab = await openLab();
    const user = await lab.engine.accounts.ensureUser({ email: 'lab@x.test' });
    await lab.engine.credits.grant(user.id, 500);
    const principal = lab.engine.accounts.localPrincipal(user);
    const created = (await lab.engine.crawls.create(principal, { urls: [`${lab.origin}/`], max_pages: 100, expansion: 'internal', link_extraction_config: { max_depth: 2, exclude_patterns: ['/slow/*'] } })) as CrawlDetail;
    await lab.engine.jobs.drain();
    const done = await lab.engine.crawls.get(principal, created.id);
    console.log(`lab: ${done.documents.length} documents, ${done.stats.pages_failed} failed, ${done.stats.pages_skipped} duplicates`);
    expect(done.status).toBe('completed');
    const paths = done.documents.map((d) => new URL(d.url).pathname);
    expect(paths.some((p) => p.startsWith('/calendar'))).toBe(false);
    expect(paths.some((p) => p.startsWith('/private'))).toBe(false);
    expect(paths).not.toContain('/image.png');
    expect(paths.filter((p) => p === '/article' || p === '/article/' || p === '/index.php' || p === '/print/article').length).toBeLessThanOrEqual(1);
    expect(done.stats.pages_failed).toBeGreaterThan(0);
    expect(done.stats.credits_used).toBe(done.documents.length);
    expect(lab.hits('/calendar/2026/1')).toHaveLength(0);
    expect(lab.hits('/slow/body')).toHaveLength(0);
  });
});
