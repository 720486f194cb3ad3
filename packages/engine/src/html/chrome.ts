import { charCode, tagOf, type HTMLElement } from './dom.js';

const CHROME_TAGS = new Set(['nav', 'header', 'footer', 'aside']);
const CHROME_ROLES = /^(navigation|banner|contentinfo|complementary|search|dialog|alert)$/i;
/**
 * Class and id words of furniture. `navheader` and `navfooter` are DocBook's (the Prev / Up / Home / Next tables of the
 * PostgreSQL manual and other generated manuals): read as content, their links lent a chapter's relevance to the
 * part's table of contents (docs/benchmarks.md, "Topical locality").
 */
const CHROME_NAMES = /(^|[\s_-])(cookie|consent|gdpr|share|sharing|social|breadcrumbs?|sidebar|side-bar|menu|navbar|navheader|navfooter|navigation|related|advert|ads?|promo|newsletter|subscribe|popup|modal|skip-link|comments?|footer|header|masthead|toolbar|pagination|pager|widget)([\s_-]|$)/i;

/**
 * The attributes that tell furniture, read from an element in one pass (`readMarkup`) and found in its result by these
 * indexes. Each reader asks them of most elements; read one at a time they were six passes over each element's
 * attributes (docs/benchmarks.md).
 */
const MARKUP = ['role', 'aria-hidden', 'hidden', 'style', 'class', 'id'] as const;
export const ROLE = 0;
const ARIA_HIDDEN = 1;
const HIDDEN = 2;
export const STYLE = 3;
const CLASS = 4;
const ID = 5;

/** The element's MARKUP attributes, by index. One list for every call: read it before the next. */
export function readMarkup(el: HTMLElement): readonly (string | undefined)[] {
  el.getAttributes(MARKUP, markup);
  return markup;
}
const markup: (string | undefined)[] = [];

/** Is this element page furniture (navigation, banners, cookie notices) rather than content? `attributes`: its `readMarkup`. */
export function isChrome(el: HTMLElement, attributes = readMarkup(el)): boolean {
  return isChromeByMarkup(tagOf(el), attributes) || isChromeName(namesIn(attributes));
}

/** Furniture by tag, ARIA role or hidden attributes (the element's `readMarkup`): what the markup says, not what it is called. */
export function isChromeByMarkup(tag: string, attributes: readonly (string | undefined)[]): boolean {
  if (CHROME_TAGS.has(tag)) return true;
  if (CHROME_ROLES.test(attributes[ROLE] ?? '')) return true;
  return attributes[ARIA_HIDDEN] === 'true' || attributes[HIDDEN] !== undefined;
}

/** Furniture by class or id words (cookie, share, sidebar...) as `namesOf` gives them, unless they also say content. */
export function isChromeName(names: string): boolean {
  return names !== '' && CHROME_NAMES.test(names) && !/(^|\s)(content|article|post|main|entry)(\s|$)/i.test(names);
}

/** The class and id words of an element, trimmed. Most elements have neither, and get no string built. */
export function namesOf(el: HTMLElement): string {
  const read = readNames(el);
  return names(read[0] ?? '', read[1]);
}

/** `namesOf` from an element's `readMarkup`. */
export function namesIn(attributes: readonly (string | undefined)[]): string {
  return names(attributes[CLASS] ?? '', asName(attributes[ID] ?? ''));
}

function names(cls: string, id: string): string {
  if (id === '') return cls.trim();
  return cls === '' ? id.trim() : `${cls} ${id}`.trim();
}

/**
 * The element's class (at 0) and its id as a name of its kind (at 1), from one pass over its attributes: a reader
 * weighing an element's names asked for each apart, two passes over the attributes of every block (docs/benchmarks.md).
 * One list for every call: read it before the next.
 */
export function readNames(el: HTMLElement): readonly [string | undefined, string] {
  el.getAttributes(NAMES, nameList);
  // getAttributes wrote the id as read, undefined when the element has none.
  nameList[1] = asName(nameList[1] ?? '');
  return nameList;
}
const NAMES = ['class', 'id'] as const;
const nameList: [string | undefined, string] = [undefined, ''];

/**
 * An id as a name of its kind. An id made from a heading's words ("sharing-with-a-single-developer") names the
 * section, not what it is, so it does not count.
 */
function asName(id: string): string {
  // Three separators make four words; counted, not split into them.
  let separators = 0;
  for (let i = 0, length = id.length; i < length && separators < 3; i++) {
    const c = charCode(id, i);
    if (c === 0x2d || c === 0x5f) separators++;
  }
  return separators >= 3 ? '' : id;
}
