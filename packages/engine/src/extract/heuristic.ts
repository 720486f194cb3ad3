import { parseDocument } from '../html/dom.js';
import { takeTree, type ParsedPage } from '../html/index.js';
import { PRICE_PATTERN, type Concept } from './concepts.js';
import { coerce, currencyOf, normalizeAvailability, parseBoolean, type FieldValue } from './coerce.js';
import { readDom, selectText, type PageDom } from './dom.js';
import { planField, type FieldPlan } from './field.js';
import { identifierFromUrl, identifierOf } from './identifier.js';
import { shownPrice } from './main-price.js';
import { buyButtonState } from './buy-button.js';
import { fromJsonLd, fromMeta, fromMicrodata, normalizeKey, type Candidate } from './structured.js';
import { relevantSentences, sentencesOf, valueAfterKeyword } from './text.js';
import { stem, words } from '../text/tokens.js';

/** A page as extraction needs it: the parsed view plus the raw HTML for DOM patterns. */
export interface ExtractionInput {
  page: ParsedPage;
  html: string;
}

export interface FieldResult {
  value: FieldValue;
  confidence: number;
  source: Candidate['source'] | null;
}

export interface HeuristicExtraction {
  data: Record<string, FieldValue>;
  fields: Record<string, FieldResult>;
}

/**
 * Reads each field from the most trustworthy place that has it: JSON-LD, microdata/RDFa,
 * meta tags, then DOM patterns, then the sentences that mention the field.
 */
export function extractHeuristic(input: ExtractionInput, schema: Record<string, string>): HeuristicExtraction {
  // The page's own parse when it came from parseHtml of this HTML: the DOM patterns then cost no second parse.
  const dom = readDom(takeTree(input.page, input.html) ?? parseDocument(input.html));
  const sentences = sentencesOf(input.page.text);
  const fields: Record<string, FieldResult> = {};
  for (const [key, instruction] of Object.entries(schema)) {
    fields[key] = extractField(planField(key, instruction), input.page, dom, sentences);
  }
  return { data: Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, f.value])), fields };
}

function extractField(plan: FieldPlan, page: ParsedPage, dom: PageDom, sentences: string[]): FieldResult {
  for (const candidate of candidates(plan, page, dom, sentences)) {
    const value = settle(plan, candidate.value);
    if (value !== null) return { value, confidence: candidate.confidence, source: candidate.source };
  }
  return { value: null, confidence: 0, source: null };
}

/** Concept-specific clean-up, then coercion to the field's type. */
function settle(plan: FieldPlan, raw: unknown): FieldValue {
  const id = plan.concept?.id;
  if (id === 'currency' && typeof raw === 'string') return currencyOf(raw);
  if (id === 'availability' && typeof raw === 'string') {
    const state = normalizeAvailability(raw);
    if (state === null) return null;
    return plan.type === 'boolean' ? parseBoolean(state) : state;
  }
  if (id === 'price' && typeof raw === 'string' && !/\d/.test(raw)) return null;
  if (id === 'author' && typeof raw === 'string') return coerce(raw.replace(/^(by|von|par|por)\s+/i, ''), plan.type);
  if (id === 'gtin' || id === 'sku' || id === 'mpn') return identifierOf(raw);
  // One product has one name and one brand: a repeated or variant value is not a list.
  if ((id === 'name' || id === 'brand') && Array.isArray(raw)) return coerce(raw[0], plan.type);
  return coerce(raw, plan.type);
}

function* candidates(plan: FieldPlan, page: ParsedPage, dom: PageDom, sentences: string[]): Generator<Candidate> {
  const genericKeys = [normalizeKey(plan.key), normalizeKey(plan.nameWords.join(''))];
  if (plan.concept) {
    yield* conceptCandidates(plan, plan.concept, genericKeys, page, dom, sentences);
  } else {
    yield* conceptCandidates(plan, undefined, genericKeys, page, dom, sentences);
    if (plan.hint) {
      // Evidence that only the instruction points to is worth less than the name's own.
      for (const c of conceptCandidates(plan, plan.hint, [], page, dom, sentences)) yield { ...c, confidence: round(c.confidence * 0.85) };
    }
  }
  const prose = PROSE.test(plan.instruction) || plan.type === 'number' || plan.type === 'date';
  for (const { sentence } of relevantSentences(sentences, plan).slice(0, 3)) {
    const after = valueAfterKeyword(sentence, plan);
    if (after) yield { value: after, source: 'text_sentence', confidence: 0.45 };
    if (prose) yield { value: sentence, source: 'text_sentence', confidence: 0.3 };
  }
}

function* conceptCandidates(
  plan: FieldPlan,
  concept: Concept | undefined,
  genericKeys: string[],
  page: ParsedPage,
  dom: PageDom,
  sentences: string[],
): Generator<Candidate> {
  const ld = fromJsonLd(page, concept, genericKeys, plan.nameWords.filter((w) => w.length > 3));
  const micro = fromMicrodata(page, concept, genericKeys);
  const shown = concept?.id === 'price' || concept?.id === 'currency' ? shownPrice(page, dom.root) : undefined;
  if (concept?.id === 'price' && shown) {
    // Markup that states the list price while the page sells for less: the selling price first.
    const marked = [ld, micro].find(Boolean);
    const amount = marked ? coerce(marked.value, 'number') : null;
    if (typeof amount === 'number' && shown.listPrices.has(amount) && shown.selling !== undefined && shown.selling !== amount) {
      yield { value: shown.selling, source: shown.sellingSource, confidence: 0.8 };
    }
  }
  if (ld) yield ld;
  if (micro) yield micro;
  if (shown?.main) {
    // What the page shows beside its title beats a meta tag, which often holds a list or old price.
    yield { value: concept!.id === 'price' ? shown.main.amount : shown.main.currency, source: 'dom_selector', confidence: 0.8 };
  }
  const meta = fromMeta(page, concept, genericKeys);
  if (meta) yield meta;
  if (concept?.id === 'name' && page.title) yield { value: page.title.split(/\s[|–—-]\s/)[0], source: 'meta', confidence: 0.7 };
  if (concept?.id === 'date_published' && page.publishedDate) yield { value: page.publishedDate, source: 'meta', confidence: 0.8 };

  for (const pair of dom.pairs) {
    if (concept ? concept.labels?.test(pair.label) : labelMatches(plan, pair.label)) {
      const datetime = pair.element?.querySelector('time[datetime]')?.getAttribute('datetime');
      yield { value: datetime ?? pair.value, source: 'dom_label', confidence: 0.75 };
    }
  }
  if (!concept) return;
  if (concept.id === 'availability') {
    // WooCommerce and many themes state it in a class: <p class="stock in-stock">14 vorrätig</p>.
    const cls = dom.root.querySelector('.stock, .availability, .product-availability')?.getAttribute('class') ?? '';
    const state = /\b(in-stock|instock|out-of-stock|outofstock|available-on-backorder|onbackorder)\b/.exec(cls);
    if (state) yield { value: state[1]!.replace(/-/g, ' '), source: 'dom_selector', confidence: 0.7 };
  }
  for (const selector of concept.selectors ?? []) {
    const found = selectText(dom.root, selector, plan.type === 'list');
    if (found !== undefined) yield { value: found, source: 'dom_selector', confidence: 0.7 };
  }
  if (concept.id === 'availability') {
    const state = buyButtonState(dom.root);
    if (state) yield { value: state, source: 'dom_selector', confidence: 0.5 };
  }
  if (concept.id === 'sku') {
    // "Item # 4471023", "Art.-Nr. KW-22", "Model No. BL-9" in the text, without a colon to make a label pair.
    const shown = /\b(?:item|sku|art(?:ikel)?|article|model|part|style|product|réf(?:érence)?|ref)\.?[\s-]*(?:#|no\.|nr\.|number|nummer|code)\s*:?\s*([A-Za-z0-9][\w.\/-]{2,39})/i.exec(page.text);
    if (shown) yield { value: shown[1], source: 'text_pattern', confidence: 0.5 };
    const fromUrl = identifierFromUrl(page.url);
    if (fromUrl) yield { value: fromUrl, source: 'text_pattern', confidence: 0.4 };
  }
  if (concept.id === 'email') for (const m of dom.mailto) yield { value: m, source: 'dom_selector', confidence: 0.8 };
  if (concept.id === 'phone') for (const t of dom.tel) yield { value: t, source: 'dom_selector', confidence: 0.8 };
  if (concept.id === 'currency') {
    for (const selector of ['.price', '.product-price', '.woocommerce-Price-currencySymbol', '.money', '[itemprop=price]']) {
      const found = selectText(dom.root, selector);
      if (typeof found === 'string' && currencyOf(found)) yield { value: found, source: 'dom_selector', confidence: 0.6 };
    }
    const price = PRICE_PATTERN.exec(page.text);
    if (price) yield { value: price[0], source: 'text_pattern', confidence: 0.5 };
  }
  if (concept.pattern) {
    for (const { sentence } of relevantSentences(sentences, plan)) {
      const m = concept.pattern.exec(sentence);
      if (m) yield { value: m[1] ?? m[0], source: 'text_pattern', confidence: 0.55 };
    }
    // A price anywhere on an article is usually a figure in the story, so only shop pages get the page-wide look.
    const pageWide = ['email', 'phone'].includes(concept.id) || (concept.id === 'availability' && looksLikeShop(page, dom));
    if (pageWide) {
      const m = concept.pattern.exec(page.text);
      if (m) yield { value: m[1] ?? m[0], source: 'text_pattern', confidence: 0.45 };
    }
  }
}

/** Common attribute labels of German, French and Spanish shops, read as the English field words. */
const LABEL_SYNONYMS: Record<string, string> = {
  gewicht: 'weight', poids: 'weight', peso: 'weight',
  größe: 'size', grösse: 'size', abmessungen: 'dimensions', maße: 'dimensions', taille: 'size', tamaño: 'size',
  farbe: 'color', couleur: 'color', colour: 'color',
  material: 'material', matériau: 'material', matière: 'material',
  hersteller: 'manufacturer', marke: 'brand', marque: 'brand', marca: 'brand',
  höhe: 'height', hauteur: 'height', altura: 'height', breite: 'width', largeur: 'width',
  garantie: 'warranty', garantía: 'warranty', guarantee: 'warranty',
};

/** Instructions that ask for a statement rather than a value: a whole sentence may answer them. */
const PROSE = /\b(summary|summari[sz]e|describe|description|explain|why|sentence|statement|reason|policy|overview|details|what does|how does)\b/i;

function looksLikeShop(page: ParsedPage, dom: PageDom): boolean {
  if (/product/i.test(page.openGraph.type ?? '')) return true;
  if (page.jsonLd.some((item) => /product|offer/i.test(String(item['@type'])))) return true;
  return /add.to.(cart|basket|bag)|buy now|in den warenkorb|ajouter au panier|añadir al carrito|basket|checkout/i.test(dom.root.text);
}

const round = (n: number) => Math.round(n * 100) / 100;

/** A label names the field when it says the same thing: all name words, or only words of the name. */
function labelMatches(plan: FieldPlan, label: string): boolean {
  if (plan.nameWords.length === 0) return false;
  const labelWords = words(label).map((w) => stem(LABEL_SYNONYMS[w] ?? w));
  if (labelWords.length === 0) return false;
  const name = plan.nameWords.map((w) => stem(LABEL_SYNONYMS[w] ?? w));
  const allNameWords = name.every((w) => labelWords.includes(w)) && labelWords.length <= name.length + 2;
  const onlyNameWords = labelWords.every((w) => name.includes(w));
  return allNameWords || onlyNameWords;
}
