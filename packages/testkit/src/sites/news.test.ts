import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalWeb, type LocalWeb } from '../index.js';

describe('the news site', () => {
  let web: LocalWeb;
  beforeAll(async () => {
    web = await startLocalWeb({ seed: 2, sizes: { articles: 30 } });
  });
  afterAll(() => web.close());

  it('serves articles whose JSON-LD carries the author unless the byline is only in the DOM', async () => {
    const placements = new Set<string>();
    for (let id = 1; id <= 30; id++) {
      const a = web.truth.article(id)!;
      const body = await (await fetch(web.news + a.path)).text();
      placements.add(a.authorIn);
      const ld = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/.exec(body)![1]!);
      expect(ld).toMatchObject({ '@type': 'NewsArticle', headline: a.headline, datePublished: a.published, dateModified: a.modified });
      expect(ld.author?.name).toBe(a.authorIn === 'dom' ? undefined : a.author);
      expect(body).toContain(a.author);
      expect(body).toContain(a.dateText);
      expect(body).toContain(`<meta name="description" content="${a.description.replace(/&/g, '&amp;')}">`);
      for (const paragraph of a.paragraphs) expect(body).toContain(paragraph);
    }
    expect(placements).toEqual(new Set(['dom', 'jsonld+dom']));
  });

  it('reaches every article through the paginated archive', async () => {
    const found = new Set<string>();
    let next: string | null = `${web.news}/archive`;
    while (next) {
      const body: string = await (await fetch(next)).text();
      for (const m of body.matchAll(/href="(\/article\/[^"?]+)"/g)) found.add(web.news + m[1]);
      const rel: RegExpExecArray | null = /<link rel="next" href="([^"]+)">/.exec(body);
      next = rel ? web.news + rel[1] : null;
    }
    expect([...found].sort()).toEqual(web.truth.articleUrls().sort());
  });

  it('publishes three new articles per version and rewrites one', async () => {
    const before = web.truth.articleUrls().length;
    web.setVersion(2);
    try {
      expect(web.truth.articleUrls().length).toBe(before + 3);
      const newest = web.truth.article(33)!;
      expect((await fetch(web.news + newest.path)).status).toBe(200);
      expect(web.truth.article(30)!.paragraphs[1]).toContain('version 2');
      expect(await (await fetch(web.news + web.truth.article(30)!.path)).text()).toContain('revised after publication (version 2)');
    } finally {
      web.setVersion(1);
    }
  });
});
