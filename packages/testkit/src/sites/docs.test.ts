import { describe, expect, it } from 'vitest';
import { startLocalWeb } from '../index.js';

describe('the docs site', () => {
  it('serves a tree three wide and as deep as asked, every page linking its children', async () => {
    const web = await startLocalWeb({ seed: 4, sizes: { docsDepth: 5 } });
    try {
      const urls = web.truth.docUrls();
      expect(urls.length).toBe(1 + 3 + 9 + 27 + 81 + 243);
      const deepest = `${web.docs}/docs/install/configure/deploy/install/configure`;
      expect(urls).toContain(deepest);
      const body = await (await fetch(deepest)).text();
      expect(body).toContain(web.truth.doc('/docs/install/configure/deploy/install/configure')!.paragraphs[0]);
      expect(body).toContain('href="/docs/install/configure/deploy/install" rel="prev"');
      expect((await fetch(`${deepest}/install`)).status).toBe(404);
      const middle = await (await fetch(`${web.docs}/docs/deploy`)).text();
      for (const child of web.truth.doc('/docs/deploy')!.children) expect(middle).toContain(`href="${child}"`);
      expect((await fetch(web.docs, { redirect: 'manual' })).headers.get('location')).toBe('/docs');
    } finally {
      await web.close();
    }
  });

  it('adds a changelog page per version and edits the install guide', async () => {
    const web = await startLocalWeb({ seed: 4, sizes: { docsDepth: 1 }, version: 3 });
    try {
      expect(web.truth.docUrls()).toEqual(expect.arrayContaining([`${web.docs}/docs/changelog/v2`, `${web.docs}/docs/changelog/v3`]));
      expect(await (await fetch(`${web.docs}/docs/install`)).text()).toContain('Changed in version 3');
      expect((await fetch(`${web.docs}/docs/changelog/v4`)).status).toBe(404);
    } finally {
      await web.close();
    }
  });
});
