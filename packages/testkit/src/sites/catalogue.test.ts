import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { startLocalWeb } from '../index.js';
import { CATEGORIES } from './categories.js';
import { catalogueModel, formatPrice, PER_PAGE, type ProductMarkup } from './catalogue-model.js';

const get = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, body: await res.text() };
};

describe('catalogueModel', () => {
  it('indexes every category listing and the whole catalogue exactly like a filter over all ids would', () => {
    for (const products of [500, 1_001]) {
      for (const version of [1, 2, 3]) {
        const model = catalogueModel({ seed: 11, products }, version);
        const live = Array.from({ length: model.total }, (_, i) => i + 1).filter(model.isLive);
        expect(Array.from({ length: model.liveCount }, (_, k) => model.nthLive(k))).toEqual(live);
        for (const category of CATEGORIES) {
          const expected = live.filter((id) => model.categoryOf(id).slug === category.slug);
          const listed: number[] = [];
          for (let page = 1; model.listing(category.slug, page); page++) listed.push(...model.listing(category.slug, page)!.ids);
          expect(listed, `${category.slug} v${version}`).toEqual(expected);
        }
      }
    }
  });

  it('removes every 17th original product and adds five per version step', () => {
    const v1 = catalogueModel({ seed: 1, products: 100 }, 1);
    const v3 = catalogueModel({ seed: 1, products: 100 }, 3);
    expect(v1.liveCount).toBe(100);
    expect(v3.liveCount).toBe(100 - 5 + 10);
    expect(v3.product(34)).toBeNull();
    expect(v3.product(110)!.id).toBe(110);
    expect(v3.product(111)).toBeNull();
  });

  it('prints prices in four formats', () => {
    expect([0, 1, 2, 3].map((style) => formatPrice(1299, style))).toEqual(['€1.299,00', 'EUR 1299.00', '1,299.00 €', '€1,299.00']);
    expect(formatPrice(15.5, 0)).toBe('€15,50');
  });
});

describe('the catalogue site', () => {
  it('serves product pages whose markup carries the truth in JSON-LD, microdata or only DOM labels', async () => {
    const web = await startLocalWeb({ seed: 5, sizes: { products: 60 } });
    try {
      const seen = new Set<ProductMarkup>();
      const styles = new Set<string>();
      for (let id = 1; id <= 60; id++) {
        const p = web.truth.product(id)!;
        const { status, body } = await get(web.truth.productUrl(id)!);
        expect(status).toBe(200);
        seen.add(p.markup);
        styles.add(p.priceText.replace(/\d/g, '9').replace(/9+/g, '9'));
        expect(body).toContain(`<h1`);
        expect(body).toContain(p.priceText);
        expect(body.includes('application/ld+json'), `${id} ${p.markup}`).toBe(p.markup.startsWith('jsonld'));
        expect(body.includes('itemprop="price"'), `${id} ${p.markup}`).toBe(p.markup.includes('microdata'));
        if (p.markup.startsWith('jsonld')) {
          const ld = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/.exec(body)![1]!);
          expect(ld).toMatchObject({ '@type': 'Product', name: p.name, sku: p.sku, offers: { price: p.price.toFixed(2), priceCurrency: 'EUR' } });
        }
        if (p.markup === 'dom') {
          expect(body).toMatch(new RegExp(`(<th>Price</th><td>|<dt>Price</dt><dd>)${p.priceText.replace(/[.$]/g, '\\$&')}`));
          expect(body).toMatch(/(<th>SKU<\/th>|<dt>SKU<\/dt>)/);
        }
      }
      expect(seen.size).toBe(4);
      expect(styles.size).toBeGreaterThanOrEqual(4);
    } finally {
      await web.close();
    }
  });

  it('paginates category listings with ?page=N and rel=next, and ends without one', async () => {
    const web = await startLocalWeb({ seed: 5, sizes: { products: 1_000 } });
    try {
      const first = web.truth.listing('headphones')!;
      const page1 = (await get(first.url)).body;
      expect(page1).toContain(`<link rel="next" href="/category/headphones?page=2">`);
      for (const url of first.productUrls) expect(page1).toContain(new URL(url).pathname);
      const last = web.truth.listing('headphones', first.pages)!;
      expect(last.next).toBeNull();
      const lastBody = (await get(last.url)).body;
      expect(lastBody).not.toContain('rel="next"');
      expect(lastBody).toContain('rel="prev"');
      expect((await get(`${web.catalogue}/category/headphones?page=${first.pages + 1}`)).status).toBe(404);
      expect(first.count).toBe(web.truth.relevantUrls('headphones').length);
      expect(first.productUrls.length).toBe(Math.min(PER_PAGE, first.count));
    } finally {
      await web.close();
    }
  });

  it('answers removed products with 410 or 404 after the version changes', async () => {
    const web = await startLocalWeb({ seed: 5, sizes: { products: 60 } });
    try {
      const [u17, u34] = [web.truth.productUrl(17)!, web.truth.productUrl(34)!];
      web.setVersion(2);
      expect((await get(u17)).status).toBe(404);
      expect((await get(u34)).status).toBe(410);
      expect(web.truth.productUrl(17)).toBeNull();
    } finally {
      await web.close();
    }
  });

  it('addresses all 100,000 products without holding pages in memory', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    // load fetch's client before measuring, so only the local web's own allocations count
    await fetch('http://127.0.0.1:1').catch(() => undefined);
    gc();
    const before = process.memoryUsage().heapUsed;
    const web = await startLocalWeb({ seed: 9, sizes: { products: 100_000 } });
    try {
      const product = web.truth.product(99_999)!;
      const page = await get(web.truth.productUrl(99_999)!);
      expect(page.status).toBe(200);
      expect(page.body).toContain(product.name);
      expect(page.body).toContain(product.priceText);
      const pages = web.truth.listing('laptops')!.pages;
      expect(pages).toBeGreaterThan(200);
      const nearEnd = web.truth.listing('laptops', pages - 1)!;
      const listing = await get(nearEnd.url);
      expect(listing.status).toBe(200);
      for (const url of nearEnd.productUrls) expect(listing.body).toContain(new URL(url).pathname);
      expect(Math.max(...nearEnd.productUrls.map((u) => Number(/\/product\/(\d+)-/.exec(u)![1])))).toBeGreaterThan(99_000);
      const lastPart = `${web.catalogue}/sitemap-products-100.xml`;
      expect((await get(lastPart)).body).toContain(web.truth.productUrl(100_000)!);
      gc();
      // 100,000 product objects would take tens of megabytes; the generators keep none
      expect(process.memoryUsage().heapUsed - before).toBeLessThan(8 * 1024 * 1024);
    } finally {
      await web.close();
    }
  });
});

describe('the catalogue link graph', () => {
  /** A deliberately small crawler for this test: same-origin links, junk dropped, a fixed page budget. */
  async function crawl(start: string, budget: number, priority: (anchor: string, url: string) => number) {
    const queue: { url: string; score: number; order: number }[] = [{ url: start, score: 0, order: 0 }];
    const seen = new Set([start]);
    const fetched: string[] = [];
    let order = 1;
    while (queue.length > 0 && fetched.length < budget) {
      queue.sort((a, b) => b.score - a.score || a.order - b.order);
      const { url } = queue.shift()!;
      fetched.push(url);
      const body = await (await fetch(url)).text();
      for (const [, href, anchor] of body.matchAll(/<a href="([^"]+)"[^>]*>([^<]*)<\/a>/g)) {
        const target = new URL(href!.replace(/&amp;/g, '&'), url);
        if (target.origin !== new URL(start).origin || target.search.includes('sessionid') || target.search.includes('utm_')) continue;
        if (/^\/(login|cart|share|print|private)/.test(target.pathname)) continue;
        if (seen.has(target.href)) continue;
        seen.add(target.href);
        queue.push({ url: target.href, score: priority(anchor!, target.href), order: order++ });
      }
    }
    return fetched;
  }

  it('makes breadth-first waste its budget on hubs while anchor texts lead to the relevant products', async () => {
    for (const seed of [13, 14]) {
      const web = await startLocalWeb({ seed, sizes: { products: 5_000 } });
      try {
        const intent = 'noise cancelling wireless headphones';
        const relevant = new Set(web.truth.relevantUrls(web.truth.categoryForIntent(intent)!.slug));
        const words = intent.split(' ');
        const precision = (urls: string[]) => urls.filter((u) => relevant.has(u)).length / urls.length;
        const breadthFirst = await crawl(`${web.catalogue}/`, 80, () => 0);
        const byAnchor = await crawl(`${web.catalogue}/`, 80, (anchor) => words.filter((w) => anchor.toLowerCase().includes(w)).length);
        const [bfs, guided] = [precision(breadthFirst), precision(byAnchor)];
        console.log(`seed ${seed}, relevant pages in an 80-page budget: breadth-first ${(bfs * 100).toFixed(1)}%, anchor-guided ${(guided * 100).toFixed(1)}%`);
        expect(bfs).toBeLessThan(0.15);
        expect(guided).toBeGreaterThan(0.8);
      } finally {
        await web.close();
      }
    }
  });
});
