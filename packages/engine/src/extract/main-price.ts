import { childElements, tagOf, textOf, type HTMLElement } from '../html/dom.js';
import { words } from '../text/tokens.js';
import { parsePrice } from './price.js';

/**
 * The main product's price as the page shows it, when its markup does not say: every short
 * element showing a price is scored on what any shop's template tells about it, and the best
 * one wins.
 *
 * - named a price (class, id or itemprop with "price") counts for it; "sale", "now", "deal",
 *   "special", "final", "current" count more: the selling price beats the list price;
 * - struck through (<del>, <s>, "strike", "old", "was", "regular", "list", "compare", "msrp")
 *   counts against, as do savings, shipping, instalments and per-unit prices;
 * - one of several look-alike siblings that each show a price is an item of a carousel or a
 *   list (related products, bundles, "customers also bought"), not the page's product;
 * - near the page's <h1> (the product's title) counts for it; hidden elements count against.
 */
export interface PriceCandidate {
  text: string;
  amount: number;
  currency: string | null;
  score: number;
  /** The evidence that made the score, for reading why one price won. */
  why: string[];
}

const NAMED = /price|preis|prix|precio|prezzo|prijs|cena|amount|cost/i;
const SELLING = /sale|now|deal|special|final|current|actual|our|offer|promo|selling|reduced|new\b|member|today/i;
const LIST = /strike|old|was|regular|list|compare|msrp|original|retail|before|crossed|\breg\b|rrp|uvp|uber|instead|striked|previous|\bfrom-price/i;
const NOT_A_PRICE = /saving|save|\boff\b|protection|warranty|plan|discount|shipping|delivery|per.?month|monthly|installment|instalment|finance|\/mo\b|unit.?price|per (oz|lb|kg|ml|ct|count|item)|tax|fee|deposit|reward|points|coupon|threshold|free shipping|cart|subtotal|total|min|max|filter|range/i;
const LIST_CONTAINER = /related|recommend|similar|carousel|also|upsell|up-sell|cross-?sell|bundle|recently|slider|suggest|you-may|sponsored|widget|product-?grid|product-?list|mini-?cart|footer/i;
const SELLING_WORDS = /\b(now|sale|deal|special|today|jetzt|nur|maintenant|ahora|offer|offerta|aanbieding)\b/i;
const HIDDEN = /display\s*:\s*none|visibility\s*:\s*hidden/i;
const CURRENCY_SIGN = /[$€£¥₹₩₽₫₪₺₴฿]|\b[A-Z]{3}\b|kr|zł|Kč|lei|руб|грн/;

const MAX_TEXT = 40;
const ANCESTORS = 5;

export function priceCandidates(root: HTMLElement, title?: string | null): PriceCandidate[] {
  const all = root.querySelectorAll('*');
  const order = new Map<HTMLElement, number>(all.map((el, i) => [el, i]));
  const h1 = titleHeading(root, title);
  const h1At = h1 ? (order.get(h1) ?? -1) : -1;
  const out: PriceCandidate[] = [];
  for (const el of all) {
    const tag = tagOf(el);
    if (tag === 'option' || tag === 'select' || tag === 'script' || tag === 'style') continue;
    const itemprop = (el.getAttribute('itemprop') ?? '').toLowerCase();
    const content = itemprop === 'price' ? el.getAttribute('content') : null;
    const text = content ?? textOf(el);
    if (!text || text.length > MAX_TEXT || !/\d/.test(text)) continue;
    // The innermost element holding the price: a child with the digits is scored instead.
    const children = content ? [] : childElements(el);
    if (children.some((c) => /\d/.test(textOf(c)) && textOf(c).length >= text.length - 2 && !isCents(c))) continue;
    // A block of several prices (list beside sale price) is read through its children.
    if (children.filter((c) => /\d/.test(textOf(c)) && !isCents(c)).length >= 2) continue;
    const chain = chainOf(el);
    const named = NAMED.test(chain) || itemprop === 'price';
    if (!named && !CURRENCY_SIGN.test(text)) continue;
    const parsed = parsePrice(withCents(el, text));
    if (parsed.amount === null || parsed.amount === 0) continue;
    // Words beside the number that are not a price's: "4.5 out of 5", "3 reviews", "$28+ shipping included".
    const words = content ? '' : wordsBeside(text, parsed.currency);
    if (words.replace(LABEL_WORDS, '').replace(/[^\p{L}]/gu, '').length > 2) continue;

    let score = 0;
    const why: string[] = [];
    const add = (n: number, reason: string) => {
      score += n;
      why.push(`${reason} ${n}`);
    };
    if (named) add(3, 'named');
    if (itemprop === 'price') add(1, 'itemprop');
    if (parsed.currency) add(1, 'currency');
    const own = `${el.getAttribute('class') ?? ''} ${el.getAttribute('id') ?? ''} ${el.parentNode ? `${(el.parentNode as HTMLElement).getAttribute?.('class') ?? ''} ${(el.parentNode as HTMLElement).getAttribute?.('id') ?? ''}` : ''}`;
    if (SELLING.test(own) || SELLING_WORDS.test(words)) add(1.5, 'selling');
    if (/price/i.test(el.getAttribute('id') ?? '')) add(1, 'price id');
    // A list or "was" price is only beaten when the block shows another price (a sale price beside it).
    if ((LIST.test(own) || struck(el)) && blockHasOtherPrice(el, text)) add(-3, 'list price');
    if (NOT_A_PRICE.test(own) || NOT_A_PRICE.test(words)) add(-3, 'not a price');
    if (/\b(was|reg\.?|list|before|msrp|rrp|uvp|statt)\b/i.test(words)) add(-2, 'was words');
    if (inRepeatedItem(el)) add(-4, 'repeated item');
    if (LIST_CONTAINER.test(ancestorsChain(el, 12))) add(-1.5, 'list container');
    if (hidden(el)) add(-2, 'hidden');
    const at = order.get(el) ?? 0;
    if (h1At >= 0) {
      if (within(el, h1!) || (at > h1At && at - h1At < 250)) add(2, 'after title');
      else if (at < h1At && h1At - at < 60) add(1, 'before title');
    }
    // Earlier on the page is the product's block; the page's end is its related items and footer.
    score -= (at / Math.max(all.length, 1)) * 1.5;
    out.push({ text, amount: parsed.amount, currency: parsed.code, score, why });
  }
  return out.sort((a, b) => b.score - a.score);
}

export interface ShownPrice {
  /** The best-placed price element, when one looks enough like the product's price. */
  main: PriceCandidate | undefined;
  /** Prices the page marks as list, regular or struck-through prices. */
  listPrices: Set<number>;
  /** The selling price the page states apart from its markup: a sale price meta tag or the shown price. */
  selling: number | undefined;
  sellingSource: 'meta' | 'dom_selector';
}

/** What the page shows about its price, beside what its markup says. */
export function shownPrice(page: { title: string | null; meta: Record<string, string> }, root: HTMLElement): ShownPrice {
  const candidates = priceCandidates(root, page.title);
  const main = candidates[0] && candidates[0].score >= 3 ? candidates[0] : undefined;
  const listPrices = new Set(candidates.filter((c) => c.why.some((w) => w.startsWith('list price'))).map((c) => c.amount));
  let metaSelling: number | undefined;
  for (const [key, value] of Object.entries(page.meta)) {
    const amount = parsePrice(value).amount;
    if (amount === null) continue;
    if (/(standard|regular|original|list|old)_?(amount|price)/i.test(key)) listPrices.add(amount);
    else if (/(^|:)(price:amount|sale_price:amount)$/i.test(key)) metaSelling ??= amount;
  }
  const selling = metaSelling ?? main?.amount;
  return { main, listPrices, selling, sellingSource: metaSelling !== undefined ? 'meta' : 'dom_selector' };
}

/** The product's title: the <h1> sharing most words with the page's <title>, else the first one with text. */
function titleHeading(root: HTMLElement, title?: string | null): HTMLElement | null {
  const headings = root.querySelectorAll('h1').filter((h) => textOf(h).length > 0);
  if (!title || headings.length <= 1) return headings[0] ?? null;
  const wanted = new Set(words(title));
  const overlap = (h: HTMLElement) => words(textOf(h)).filter((w) => wanted.has(w)).length;
  return headings.reduce((best, h) => (overlap(h) > overlap(best) ? h : best), headings[0]!);
}

function within(el: HTMLElement, ancestor: HTMLElement): boolean {
  for (let node: HTMLElement | null = el; node; node = node.parentNode as HTMLElement | null) if (node === ancestor) return true;
  return false;
}

/** Labels a price element may carry beside its number. */
const LABEL_WORDS = /\b(price|prices|our|sale|now|from|only|starting|start|starts|at|offer|special|today|each|ea|incl|inkl|vat|mwst|tax|ttc|was|reg|regular|list|you|pay|deal|of|the|day|new|just|und|ab|nur|jetzt|dès|à|partir|de|desde|por|da|a|vanaf|nu|prix|preis|precio|prezzo|prijs|cena|retail)\b/giu;

function wordsBeside(text: string, currency: string | null): string {
  const withoutCurrency = currency ? text.split(currency).join(' ') : text;
  return withoutCurrency.replace(/[\d.,\s%:+*()\/\-–—]+/g, ' ').trim();
}

/** Another price in the element's small block (up to three levels up): the element is one of a pair. */
function blockHasOtherPrice(el: HTMLElement, text: string): boolean {
  let node: HTMLElement | null = el.parentNode as HTMLElement | null;
  for (let i = 0; node && i < 3; i++, node = node.parentNode as HTMLElement | null) {
    const block = typeof node.getAttribute === 'function' ? textOf(node) : '';
    if (block.length > 300) return false;
    const prices = block.match(/\d[\d.,]*\d|\d/g)?.filter((n) => n.length >= 2) ?? [];
    const mine = parsePrice(text).amountText;
    if (prices.some((n) => parsePrice(n).amountText !== mine)) return true;
  }
  return false;
}

/** class, id and itemprop of an element and its near ancestors. */
function chainOf(el: HTMLElement): string {
  return ancestorsChain(el, ANCESTORS);
}

function ancestorsChain(el: HTMLElement, depth: number): string {
  const parts: string[] = [];
  let node: HTMLElement | null = el;
  for (let i = 0; node && i < depth; i++) {
    if (typeof node.getAttribute !== 'function') break;
    parts.push(node.getAttribute('class') ?? '', node.getAttribute('id') ?? '', node.getAttribute('itemprop') ?? '');
    node = node.parentNode as HTMLElement | null;
  }
  return parts.join(' ');
}

function struck(el: HTMLElement): boolean {
  let node: HTMLElement | null = el;
  for (let i = 0; node && i < 3; i++) {
    if (['del', 's', 'strike'].includes(tagOf(node))) return true;
    if (/line-through/i.test(node.getAttribute?.('style') ?? '')) return true;
    node = node.parentNode as HTMLElement | null;
  }
  return false;
}

function hidden(el: HTMLElement): boolean {
  let node: HTMLElement | null = el;
  for (let i = 0; node && i < 6; i++) {
    if (typeof node.getAttribute !== 'function') break;
    if (HIDDEN.test(node.getAttribute('style') ?? '') || node.getAttribute('hidden') !== undefined && node.getAttribute('hidden') !== null) return true;
    node = node.parentNode as HTMLElement | null;
  }
  return false;
}

/**
 * Inside one of several look-alike siblings (same tag and class) that each show a price: an
 * item of a list or carousel of other products.
 */
function inRepeatedItem(el: HTMLElement): boolean {
  let node: HTMLElement | null = el;
  for (let i = 0; node && i < 10; i++) {
    const parent = node.parentNode as HTMLElement | null;
    if (!parent || typeof parent.getAttribute !== 'function') return false;
    const key = `${tagOf(node)}.${(node.getAttribute('class') ?? '').split(/\s+/)[0]}`;
    const twins = childElements(parent).filter((c) => c !== node && `${tagOf(c)}.${(c.getAttribute('class') ?? '').split(/\s+/)[0]}` === key);
    if (twins.length >= 2 && ['li', 'div', 'article', 'tr', 'a', 'section'].includes(tagOf(node))) {
      const priced = twins.filter((t) => /\d/.test(t.text) && CURRENCY_SIGN.test(t.text) && t.text.length < 3_000).length;
      if (priced >= 2) return true;
    }
    node = parent;
  }
  return false;
}

/** "$31<sup>57</sup>": cents written as a raised or separate two-digit element. */
function isCents(el: HTMLElement): boolean {
  return /^\d{2}$/.test(textOf(el)) && ['sup', 'span', 'small'].includes(tagOf(el));
}

function withCents(el: HTMLElement, text: string): string {
  const last = childElements(el).at(-1);
  if (last && isCents(last) && !/[.,]\d{2}$/.test(text.replace(/\s/g, '').slice(0, -2))) {
    const whole = text.slice(0, text.lastIndexOf(textOf(last))).replace(/[.,\s]+$/, '');
    if (/\d$/.test(whole) && !/[.,]\d{1,2}$/.test(whole)) return `${whole}.${textOf(last)}`;
  }
  return text;
}
