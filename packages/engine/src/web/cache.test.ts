import { afterEach, describe, expect, it } from 'vitest';
import { openLab, type Lab } from './testing.js';

let lab: Lab | undefined;
afterEach(async () => {
  await lab?.dispose();
  lab = undefined;
});

describe('the global cache', () => {
  it('serves a fresh copy without a request and reports fromCache', async () => {
    lab = await openLab();
    const first = await lab.engine.web.fetch({ url: `${lab.origin}/target`, useCache: true });
    const second = await lab.engine.web.fetch({ url: `${lab.origin}/target`, useCache: true });
    expect(first.fromCache).toBe(false);
    expect(second.fromCache).toBe(true);
    expect(second.body).toBe(first.body);
    expect(lab.hits('/target')).toHaveLength(1);
  });

  it('fetches again once the copy is older than cacheMaxAge on the engine clock', async () => {
    lab = await openLab();
    await lab.engine.web.fetch({ url: `${lab.origin}/target`, useCache: true, cacheMaxAge: 60 });
    lab.clock.advance(61_000);
    const page = await lab.engine.web.fetch({ url: `${lab.origin}/target`, useCache: true, cacheMaxAge: 60 });
    expect(page.fromCache).toBe(false);
    expect(lab.hits('/target')).toHaveLength(2);
  });

  it('is bypassed when useCache is off', async () => {
    lab = await openLab();
    await lab.engine.web.fetch({ url: `${lab.origin}/target` });
    const page = await lab.engine.web.fetch({ url: `${lab.origin}/target` });
    expect(page.fromCache).toBe(false);
    expect(lab.hits('/target')).toHaveLength(2);
  });

  it('never stores an error answer', async () => {
    lab = await openLab();
    await lab.engine.web.fetch({ url: `${lab.origin}/status/404`, useCache: true });
    const page = await lab.engine.web.fetch({ url: `${lab.origin}/status/404`, useCache: true });
    expect(page.fromCache).toBe(false);
  });

  it('serves a redirected page with its redirects, headers and final URL as first fetched', async () => {
    lab = await openLab();
    const first = await lab.engine.web.fetch({ url: `${lab.origin}/redirect/chain/2`, useCache: true });
    const second = await lab.engine.web.fetch({ url: `${lab.origin}/redirect/chain/2`, useCache: true });
    expect(second.fromCache).toBe(true);
    expect(second).toMatchObject({ url: first.url, redirects: first.redirects, headers: first.headers, kind: first.kind, charset: first.charset });
    expect(second.redirects).toHaveLength(2);
  });

  it('never stores a binary answer, whose copy would have no body to serve', async () => {
    lab = await openLab();
    await lab.engine.web.fetch({ url: `${lab.origin}/image.png`, useCache: true });
    const page = await lab.engine.web.fetch({ url: `${lab.origin}/image.png`, useCache: true });
    expect(page).toMatchObject({ kind: 'binary', fromCache: false });
    expect(lab.hits('/image.png')).toHaveLength(2);
  });

  it('leaves the copy to whoever fetched without storing it, until remember() stores it', async () => {
    lab = await openLab();
    const first = await lab.engine.web.fetch({ url: `${lab.origin}/target`, useCache: true, storeInCache: false });
    expect((await lab.engine.web.fetch({ url: `${lab.origin}/target`, useCache: true, storeInCache: false })).fromCache).toBe(false);
    await lab.engine.web.remember(first);
    const copy = await lab.engine.web.fetch({ url: `${lab.origin}/target`, useCache: true });
    expect(copy).toMatchObject({ fromCache: true, body: first.body, fetchedAt: first.fetchedAt });
    expect(lab.hits('/target')).toHaveLength(2);
  });

  it('keys the cache on the normalised URL, so tracking parameters share one entry', async () => {
    lab = await openLab();
    await lab.engine.web.fetch({ url: `${lab.origin}/article`, useCache: true });
    const page = await lab.engine.web.fetch({ url: `${lab.origin}/article?utm_campaign=x`, useCache: true });
    expect(page.fromCache).toBe(true);
  });
});
