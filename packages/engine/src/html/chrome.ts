import { charCode, tagOf, type HTMLElement } from './dom.js';

const CHROME_TAGS = new Set(['nav', 'header', 'footer', 'aside']);
const CHROME_ROLES = /^(navigation|banner|contentinfo|complementary|search|dialog|alert)$/i;
const CHROME_NAMES = /(^|[\s_-])(cookie|consent|gdpr|share|sharing|social|breadcrumbs?|sidebar|side-bar|menu|navbar|related|advert|ads?|promo|newsletter|subscribe|popup|modal|skip-link|comments?|footer|header|masthead|toolbar|pagination|pager|widget)([\s_-]|$)/i;

/** Is this element page furniture (navigation, banners, cookie notices) rather than content? */
export function isChrome(el: HTMLElement): boolean {
  return isChromeByMarkup(el) || isChromeName(namesOf(el));
}

/** Furniture by tag, ARIA role or hidden attributes: what the markup says, not what it is called. */
export function isChromeByMarkup(el: HTMLElement): boolean {
  const tag = tagOf(el);
  if (CHROME_TAGS.has(tag)) return true;
  if (CHROME_ROLES.test(el.getAttribute('role') ?? '')) return true;
  return el.getAttribute('aria-hidden') === 'true' || el.getAttribute('hidden') !== undefined;
}

/** Furniture by class or id words (cookie, share, sidebar...) as `namesOf` gives them, unless they also say content. */
export function isChromeName(names: string): boolean {
  return names !== '' && CHROME_NAMES.test(names) && !/(^|\s)(content|article|post|main|entry)(\s|$)/i.test(names);
}

/** The class and id words of an element, trimmed. Most elements have neither, and get no string built. */
export function namesOf(el: HTMLElement): string {
  const cls = el.getAttribute('class') ?? '';
  const id = idName(el);
  if (id === '') return cls.trim();
  return cls === '' ? id.trim() : `${cls} ${id}`.trim();
}

/**
 * The element's id as a name of its kind. An id made from a heading's words
 * ("sharing-with-a-single-developer") names the section, not what it is, so it does not count.
 */
export function idName(el: HTMLElement): string {
  const id = el.getAttribute('id') ?? '';
  // Three separators make four words; counted, not split into them.
  let separators = 0;
  for (let i = 0, length = id.length; i < length && separators < 3; i++) {
    const c = charCode(id, i);
    if (c === 0x2d || c === 0x5f) separators++;
  }
  return separators >= 3 ? '' : id;
}
