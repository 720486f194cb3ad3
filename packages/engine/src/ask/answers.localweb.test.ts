import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startLocalWeb, type LocalWeb } from '@wvr/testkit';
import { openTestEngine, fundedPrincipalOf, type TestEngine } from '../testing/engine.js';
import { DAY } from '../core/clock.js';
import type { CrawlDetail } from '../crawl/responses.js';
import type { EngineOptions } from '../core/options.js';
import { citedNumbers } from './compose.js';
import type { AskResponse } from './schemas.js';

let web: LocalWeb;
beforeAll(async () => {
  web = await startLocalWeb({ sizes: { products: 320, articles: 10, docsDepth: 1 } });
});
afterAll(() => web.close());

const open: TestEngine[] = [];
afterEach(async () => {
  while (open.length) await open.pop()!.dispose();
});

async function setup(options: EngineOptions = {}) {
  const t = openTestEngine({ allowPrivateNetwork: true, ...options });
  open.push(t);
  return { t, alice: await fundedPrincipalOf(t.engine, 'alice@a.test', 100) };
}

const QUESTION = 'Which noise cancelling headphones are in stock, and what do they cost?';
// The price is left out when the page's text gives none the extractor can read; what is stated must be true.
const PRODUCT = /^(.+?)(?: costs (\d+(?:\.\d{2})?) (EUR) and)? is (in stock|out of stock) \[(\d+)\]\.$/;
const OTHERS = /^(?:\d+ others? (?:is|are) not in stock|None of them is in stock) ((?:\[\d+\])+)\.$/;

/** Each sentence of a fact answer checked against the local web's ground truth; returns how many prices it stated. */
function expectFactsTrue(res: AskResponse): number {
  const sentences = res.answer.split(/(?<=\]\.)\s+/);
  let stated = 0;
  for (const sentence of sentences) {
    const product = PRODUCT.exec(sentence);
    if (product) {
      const source = res.sources[Number(product[5]) - 1]!;
      const truth = web.truth.page(source.url);
      if (truth?.kind !== 'product') throw new Error(`${source.url} is not a product page`);
      expect(product[1]).toBe(truth.product.name);
      if (product[2] !== undefined) {
        expect(Number(product[2])).toBe(truth.product.price);
        expect(product[3]).toBe(truth.product.currency);
        stated++;
      }
      // "which … are in stock" lists only what is in stock
      expect(product[4]).toBe('in stock');
      expect(truth.product.availability).toBe('InStock');
      continue;
    }
    const others = OTHERS.exec(sentence);
    expect(others, `unexpected sentence: ${sentence}`).not.toBeNull();
    for (const n of citedNumbers(others![1]!)) {
      const truth = web.truth.page(res.sources[n - 1]!.url);
      expect(truth?.kind === 'product' && truth.product.availability).not.toBe('InStock');
    }
  }
  return stated;
}

function expectCitationsResolve(res: AskResponse) {
  const cited = citedNumbers(res.answer);
  expect(cited.length).toBeGreaterThan(0);
  for (const n of cited) expect(res.sources.map((s) => s.index)).toContain(n);
  for (const s of res.sources) expect(s.cited).toBe(cited.includes(s.index));
}

describe('attribute questions under the heuristic provider', () => {
  it('states the true price and availability of each cited product read through the web provider (HTML, structured data)', async () => {
    const { t, alice } = await setup({ searxngUrl: web.search });
    const res = await t.engine.asks.create(alice, { question: QUESTION, depth: 'standard', max_sources: 10 });
    expectCitationsResolve(res);
    expect(expectFactsTrue(res)).toBeGreaterThan(0);
    expect(res.answer_mode).toBe('extractive');
    expect(res.credits.consumed).toBe(3);
  });

  it('states the true facts of products read from the local index (text only), and counts those out of stock', async () => {
    const { t, alice } = await setup();
    const urls = web.truth.relevantUrls('headphones').slice(0, 10);
    const outOfStock = urls.filter((u) => {
      const truth = web.truth.page(u);
      return truth?.kind === 'product' && truth.product.availability !== 'InStock';
    });
    const crawl = (await t.engine.crawls.create(alice, { urls, max_pages: urls.length, processing_mode: 'sync' })) as CrawlDetail;
    expect(crawl.documents.length).toBe(urls.length);
    // Past the web cache's age: the facts can only come from the indexed text.
    t.clock.advance(2 * DAY);
    const requestsBefore = web.requests.length;
    const res = await t.engine.asks.create(alice, { question: QUESTION, depth: 'standard', max_sources: 10 });
    expect(web.requests.length).toBe(requestsBefore);
    expectCitationsResolve(res);
    expect(expectFactsTrue(res)).toBeGreaterThan(0);
    const citedOutOfStock = res.sources.filter((s) => s.cited && outOfStock.includes(s.url)).length;
    if (citedOutOfStock > 0) expect(res.answer).toMatch(new RegExp(`${citedOutOfStock} others? (is|are) not in stock`));
  });

  it('states true ratings and review counts', async () => {
    const { t, alice } = await setup({ searxngUrl: web.search });
    const res = await t.engine.asks.create(alice, { question: 'How are noise cancelling headphones rated in reviews?', depth: 'quick' });
    expectCitationsResolve(res);
    const rated = [...res.answer.matchAll(/is rated ([\d.]+) of 5 from (\d+) reviews \[(\d+)\]/g)];
    expect(rated.length).toBeGreaterThan(0);
    for (const [, rating, reviews, n] of rated) {
      const truth = web.truth.page(res.sources[Number(n) - 1]!.url);
      if (truth?.kind !== 'product') throw new Error('rated a non-product page');
      expect(Number(rating)).toBe(truth.product.rating);
      expect(Number(reviews)).toBe(truth.product.reviewCount);
    }
  });

  it('quotes passages as before when the question asks for no attribute', async () => {
    const { t, alice } = await setup({ searxngUrl: web.search });
    const res = await t.engine.asks.create(alice, { question: 'noise cancelling headphones battery comfort', depth: 'standard' });
    expectCitationsResolve(res);
    expect(res.answer).not.toMatch(/ costs | is in stock /);
    // Every claim is a passage quoted verbatim from the source its marker names.
    for (const claim of res.answer.split(/(?<=\]\.)\s+/)) {
      const [, text, n] = /^(.*) \[(\d+)\]\.$/.exec(claim)!;
      const passages = res.sources[Number(n) - 1]!.passages.map((p) => p.text.replace(/[.!?]$/, ''));
      expect(passages).toContain(text);
    }
  });
});
