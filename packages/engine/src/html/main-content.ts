import { charCode, collapse, descendantsByTag, firstDescendant, headingLevel, indexEnd, isElement, isWhiteSpace, nextNode, tagOf, TEXT, textOfNode, type HTMLElement, type Node } from './dom.js';
import { isChromeByMarkup, isChromeName, namesIn, namesOf, readMarkup, readNames, STYLE } from './chrome.js';
import { THREAD_WORDS, type TreeIndex } from './tree-index.js';
import { CHARS, COMMAS, CONTROLS, ElementFacts, IMAGES, ITEMS, LINK_CHARS, PARAGRAPHS, type Stat } from './element-facts.js';

/**
 * Which parts of a page are its main content. Three linear passes over the tree, none of which
 * changes it:
 *  1. measure every element (visible characters, link characters, commas, paragraphs, images,
 *     list items, form controls) bottom-up, leaving out scripts, hidden parts and page furniture; a code listing
 *     (`<pre>`) is one run of text, its highlighting spans counted, not weighed;
 *  2. score: each run of inline text of 25 characters or more is a paragraph worth
 *     1 + commas + up to 3 for its length, given to the block that holds it and, halving and then
 *     thirding, to up to five of its ancestors; blocks start from their tag and their class/id
 *     words, and are discounted by their link density. The best block, moved up to the ancestor
 *     several near-best blocks share, is the content, with those of its siblings that score close
 *     to it or read as prose;
 *  3. while rendering, `dropped` leaves out blocks inside the content that read as furniture:
 *     link lists, image galleries, forms, short boxes of shop and share buttons.
 * A reading that keeps under ENOUGH_CHARS is done again with fewer rules (at most four more
 * times, on such short pages only), and the longest reading wins, unless it lies inside a comment thread or a
 * sidebar while another reading keeps some text (retries without name rules find the thread beside a short article),
 * or its block scores under half as well as a shorter reading's of some length (retries without cleaning find the
 * whole column of link lists around a short post). A comment thread that follows the article inside the chosen
 * blocks, marked by the anchor or heading its "comments" links point at (`<h2 id="comments">`), is left out.
 */
export interface MainContent {
  /** The blocks to render, in document order. */
  parts: HTMLElement[];
  /** Is this element (inside a part) left out of the main text? */
  dropped(el: HTMLElement): boolean;
}

export const SKIP_TAGS = new Set(['script', 'style', 'noscript', 'template', 'svg', 'iframe', 'form', 'button', 'select', 'input', 'textarea', 'canvas', 'object', 'embed', 'dialog', 'head', 'title', 'meta', 'link']);
/**
 * Is this element never text (scripts, controls, embeds)? A form is, unless it wraps the page (it holds the
 * page's h1): some sites (ASP.NET ones above all) put the whole body, article included, in one <form>.
 */
export function isSkipped(el: HTMLElement, tag = tagOf(el)): boolean {
  // The form test first, though forms are rare: a test every call runs keeps its feedback, and a test no call had
  // reached threw away the optimised code of every walk that inlines this function the first time a page had a form.
  return tag === 'form' ? formSkipped(el) : SKIP_TAGS.has(tag);
}

function formSkipped(form: HTMLElement): boolean {
  let root = form;
  while (root.parentNode !== null) root = root.parentNode;
  let verdicts = skippedForms.get(root);
  if (verdicts === undefined) skippedForms.set(root, (verdicts = new Map()));
  let skipped = verdicts.get(form);
  if (skipped === undefined) verdicts.set(form, (skipped = firstDescendant(form, (el) => tagOf(el) === 'h1') === null));
  return skipped;
}
/**
 * The verdicts by tree (its root), not by form: a crawl's reader builds each tree of the last one's nodes (NodePool),
 * so a form element may be another page's form at the next reading, but a tree's root is always new.
 */
const skippedForms = new WeakMap<HTMLElement, Map<HTMLElement, boolean>>();
const CONTROL_TAGS = new Set(['input', 'select', 'textarea', 'button']);
export const BLOCK_TAGS = new Set(['p', 'div', 'section', 'article', 'main', 'ul', 'ol', 'li', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th', 'pre', 'blockquote', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'dl', 'dt', 'dd', 'figure', 'figcaption', 'hr', 'br', 'header', 'footer', 'aside', 'nav', 'address', 'details', 'summary', 'center', 'body', 'html', 'caption', 'fieldset', 'legend', 'menu']);
/** Paragraph runs inside these do not count as prose: list items, definitions, headings, captions, table headers. */
const UNSCORED_CONTAINERS = new Set(['li', 'dt', 'dd', 'th', 'h1', 'figcaption', 'caption', 'legend', 'summary', 'address', 'ul', 'ol', 'dl', 'table', 'tbody', 'thead', 'tr']);
/** Elements that stand for one paragraph: their text scores their parent, not themselves. */
const PARAGRAPH_TAGS = new Set(['p', 'pre', 'td', 'blockquote', 'h2', 'h3', 'h4', 'h5', 'h6']);
const TAG_PRIOR: Record<string, number> = { div: 5, article: 5, main: 5, section: 2, pre: 3, td: 3, blockquote: 3, address: -3, ol: -3, ul: -3, dl: -3, dd: -3, dt: -3, li: -3, form: -3, h1: -5, h2: -5, h3: -5, h4: -5, h5: -5, h6: -5, th: -5 };
/** Class and id words of content containers, and of furniture that is not always left out (it can hold the article). */
const CONTENT_WORDS = /article|body|(?<!no)content|entry|h-entry|hentry|main|page|post|text|blog|story|prose|column/i;
const FURNITURE_WORDS = /(^|[^a-z])(ad|ads)([^a-z]|$)|-ad-|banner|byline|caption|combx|comment|contact|disqus|foot|gdpr|hidden|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags?([^a-z]|$)|taboola|teaser|widget|recommend|newsletter|signup|subscribe|author-?bio|breadcrumb|pagination|pager|nav|menu|social|popup|modal|toolbar/i;
/** Class/id words that mark furniture clearly enough to leave the element out before scoring. */
const UNLIKELY_WORDS = /-ad-|agegate|banner|breadcrumb|combx|comment|community|cookie|consent|disqus|extra|foot|gdpr|header|legends|menu|related|remark|replies|rss|shoutbox|sidebar|skyscraper|social|sponsor|supplemental|pagination|pager|popup|newsletter|share|sharing|recommend|outbrain|taboola|promo/i;
const MAYBE_CONTENT_WORDS = /and|article|body|column|content|main|shadow|post|entry|story|text/i;
/** Short blocks that are shop or site chrome, whatever their markup. */
const CHROME_TEXT =
  /^(share( this( article| story| page)?)?( on)?|tweet|pin( it)?|email|e-mail|print|sign ?in|sign ?up|log ?in|log ?out|register|my account|account|cart|basket|bag|checkout|add to (cart|basket|bag|wishlist|wish list)|buy now|wishlist|save|saved|follow( us)?|subscribe( now)?|newsletter|advertisement|sponsored|ad|skip to (main )?content|back to top|read more|see more|show more|load more|more|comments?|\d+ comments?|leave a (comment|reply)|reply|like|share on (facebook|twitter|x|linkedin|whatsapp|pinterest|reddit)|facebook|twitter|linkedin|whatsapp|pinterest|reddit|instagram|youtube|copy link|menu|search|close|accept( all)?( cookies)?|reject( all)?|decline|manage (cookies|preferences)|cookie settings|got it|ok|okay|previous|next|related( articles| stories| posts)?|tags?|topics)$/i;
const COOKIE_TEXT = /\bcookies?\b/i;
const COOKIE_ASK = /\b(accept|consent|agree to|preferences|cookie settings|privacy|we use|(site|website) uses)\b/i;
/** What parts a row of labels ("Sign in | Register"). */
const LABEL_MARK = /[|·•/]/;
const LABEL_SEPARATOR = new RegExp(`\\s*${LABEL_MARK.source}\\s*`);

/** Below this many characters the reading is retried with fewer of its rules: they can take the article with the furniture. */
const ENOUGH_CHARS = 400;

interface Rules {
  /** Leave out elements whose class/id words say furniture before scoring. */
  stripUnlikely: boolean;
  /** Class/id words weigh on scores. */
  weighNames: boolean;
  /** Drop link lists, galleries and forms inside the content. */
  clean: boolean;
}

const ATTEMPTS: Rules[] = [
  { stripUnlikely: true, weighNames: true, clean: true },
  { stripUnlikely: true, weighNames: true, clean: false },
  { stripUnlikely: false, weighNames: true, clean: true },
  { stripUnlikely: false, weighNames: false, clean: true },
  { stripUnlikely: false, weighNames: false, clean: false },
];

export function findMainContent(root: HTMLElement, index: TreeIndex): MainContent {
  const body = index.tag('body')[0] ?? root;
  let best: { content: MainContent; chars: number; score: number } | null = null;
  // A reading from inside a comment thread or a sidebar is someone else's text: it wins only over readings of almost nothing.
  let fallback: { content: MainContent; chars: number } | null = null;
  const elements = indexEnd(root);
  for (const rules of ATTEMPTS) {
    const reader = new Reader(rules, elements);
    reader.measure(body);
    const top = reader.choose(body);
    const parts = top ? reader.withSiblings(top, body) : [body];
    const kept = new Set(parts);
    const content: MainContent = { parts, dropped: (el) => !kept.has(el) && reader.dropped(el) };
    if (parts.some((part) => insideElsewhere(part, body))) {
      const chars = keptChars(parts, content);
      if (!fallback || chars > fallback.chars) fallback = { content, chars };
      continue;
    }
    // Past ENOUGH_CHARS this reading wins and ends the loop whatever its length, so counting stops there.
    const chars = keptChars(parts, content, ENOUGH_CHARS);
    const score = top ? reader.final(top) : 0;
    if (!best || (chars > best.chars && (best.chars < SHORT_READING_CHARS || score >= best.score * RETRY_MIN_SCORE))) best = { content, chars, score };
    if (chars >= ENOUGH_CHARS) break;
  }
  return withoutThread(((best && best.chars >= ELSEWHERE_MIN_CHARS) || !fallback ? best! : fallback).content, index);
}

/**
 * Ids and names of the anchor or heading a comment thread starts at (`<h2 id="comments">9 Comments</h2>`,
 * `<a name="comments"></a>`), the target of the article's "9 comments" link. Blogs put the thread right after the
 * post, often in the same block with no wrapper of its own to leave out. Each holds one of THREAD_WORDS, which the
 * tree's index keeps the elements of.
 */
const THREAD_MARK = /^(comments?|respond|replies)$/i;
const MARK_TAGS = new Set(['a', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

const isThreadMark = (el: HTMLElement, tag = tagOf(el)) =>
  MARK_TAGS.has(tag) && (THREAD_MARK.test(el.getAttribute('id') ?? '') || THREAD_MARK.test(el.getAttribute('name') ?? ''));

/**
 * The content without a comment thread that follows the article inside it: everything from a thread mark on (in
 * document order, within the parts) is left out, as long as the article before the mark keeps some text and the
 * mark is not one section heading among others.
 */
function withoutThread(content: MainContent, index: TreeIndex): MainContent {
  const { parts } = content;
  const kept = new Set(parts);
  const mark = threadMark(parts, kept, index);
  if (!mark) return content;
  const cut = new Set<HTMLElement>([mark]);
  const parent = parts[0]!.parentNode as HTMLElement | null;
  for (let node: HTMLElement = mark; node.parentNode && node !== parent; node = node.parentNode as HTMLElement) {
    // Beside the parts (a sidebar after the article) is not content: only the later parts are cut there.
    const beside = node.parentNode === parent;
    for (let sibling = node.nextSibling; sibling !== null; sibling = sibling.nextSibling) {
      if (isElement(sibling) && (!beside || kept.has(sibling))) cut.add(sibling);
    }
  }
  if (sectionsAfter(mark, cut) >= 2) return content;
  const cutContent: MainContent = { parts, dropped: (el) => cut.has(el) || content.dropped(el) };
  return keptChars(parts, cutContent, ELSEWHERE_MIN_CHARS) >= ELSEWHERE_MIN_CHARS ? cutContent : content;
}

/**
 * Headings as high as the mark (h2 for an anchor) after it: a document with a section called "Comments" (a syntax
 * guide's `<h2 id="comments">`) goes on with more sections, a thread has at most a "Leave a reply" heading.
 */
function sectionsAfter(mark: HTMLElement, cut: Set<HTMLElement>): number {
  const level = headingLevel(tagOf(mark)) || 2;
  const headings = new Set(Array.from({ length: level }, (_, i) => `h${i + 1}`));
  let count = 0;
  for (const el of cut) {
    if (el === mark) continue;
    const elLevel = headingLevel(tagOf(el));
    if (elLevel > 0 && elLevel <= level) count++;
    else count += descendantsByTag(el, headings).length;
    if (count >= 2) break;
  }
  return count;
}

/**
 * The first thread mark inside the parts or, when there are several, between them, in document order. Looked for
 * among the elements the tree's index found mentioning a thread's words, not by a walk of the parts: on a 2 MB page
 * that walk was 2.6 ms of a 110 ms reading (docs/benchmarks.md).
 */
function threadMark(parts: HTMLElement[], kept: ReadonlySet<HTMLElement>, index: TreeIndex): HTMLElement | null {
  const first = parts[0]!.parentNode as HTMLElement | null;
  const parent = parts.length > 1 && first?.rawTagName ? first : null;
  return index.first(THREAD_WORDS, (el) => isThreadMark(el) && ((parent !== null && el.parentNode === parent) || inside(el, kept))) ?? null;
}

/** Whether `el` is one of `parts` or lies inside one. */
function inside(el: HTMLElement, parts: ReadonlySet<HTMLElement>): boolean {
  for (let node: HTMLElement | null = el; node?.rawTagName; node = node.parentNode as HTMLElement | null) if (parts.has(node)) return true;
  return false;
}

/**
 * Whole class/id names of blocks that hold other people's text or other pages' teasers: comment threads and
 * sidebars. Whole names only: "right-sidebar" or "l-sidebar-fixed" name a layout that holds the article.
 */
const ELSEWHERE_NAME = /^(comments?|comments?[-_]?(list|thread|area|section|wrapper|container)|disqus_thread|replies|respond|sidebar\d*|side-bar)$/i;
/** A reading outside comments and sidebars wins over one inside them when it keeps at least this much. */
const ELSEWHERE_MIN_CHARS = 25;
/**
 * A retry's longer reading replaces a reading of at least SHORT_READING_CHARS only when its block scores at least
 * RETRY_MIN_SCORE times as well: with fewer rules a retry can take the whole column of category and archive links
 * around a short post (a photo or video post of two sentences), which is longer but reads as nothing.
 */
const SHORT_READING_CHARS = 100;
const RETRY_MIN_SCORE = 0.5;

function insideElsewhere(el: HTMLElement, body: HTMLElement): boolean {
  for (let node: HTMLElement | null = el; node?.rawTagName && node !== body; node = node.parentNode as HTMLElement | null) {
    if (namesOf(node).split(/\s+/).some((name) => ELSEWHERE_NAME.test(name))) return true;
  }
  return false;
}

/**
 * Characters the content keeps, up to `enough` (the count stops once it gets there): a walk of the
 * parts, in document order, that skips what `dropped` leaves out.
 */
function keptChars(parts: HTMLElement[], content: MainContent, enough = Infinity): number {
  let chars = 0;
  for (let i = 0; i < parts.length && chars < enough; i++) {
    const part = parts[i]!;
    if (content.dropped(part)) continue;
    for (let node: Node | null = part; node !== null && chars < enough; ) {
      if (!isElement(node)) {
        chars += visibleLength(node.text);
        node = nextNode(node, part);
      } else node = nextNode(node, part, node === part || (!isSkipped(node) && !content.dropped(node)));
    }
  }
  return chars;
}

class Reader {
  private readonly facts: ElementFacts;

  /** `elements`: one past the page's largest element index, the room its facts need. */
  constructor(
    private readonly rules: Rules,
    elements: number,
  ) {
    this.facts = new ElementFacts(elements);
  }

  /** Pass 1: statistics of `el` (kept in `facts`), scoring each paragraph run found on the way. */
  measure(el: HTMLElement): void {
    const tag = tagOf(el);
    if (tag === 'pre') return this.measureCode(el);
    const facts = this.facts;
    let run = 0;
    let runCommas = 0;
    let hasBlock = false;
    const scored = !UNSCORED_CONTAINERS.has(tag);
    for (let child = el.firstChild; child !== null; child = child.nextSibling) {
      if (!isElement(child)) {
        if (child.nodeType !== TEXT) continue;
        const text = textOfNode(child);
        const chars = visibleLength(text);
        if (chars === 0) continue;
        const commas = countCommas(text);
        facts.addCount(el, CHARS, chars);
        facts.addCount(el, COMMAS, commas);
        run += chars;
        runCommas += commas;
        continue;
      }
      const childTag = tagOf(child);
      if (isSkipped(child, childTag)) {
        if (CONTROL_TAGS.has(childTag)) facts.addCount(el, CONTROLS, 1);
        else if (childTag === 'form') facts.addCount(el, CONTROLS, descendantsByTag(child, CONTROL_TAGS).length);
        facts.markSkipped(child);
        continue;
      }
      if (childTag === 'img') {
        facts.addCount(el, IMAGES, 1);
        continue;
      }
      if (this.leftOut(child, childTag)) {
        facts.markSkipped(child);
        continue;
      }
      this.measure(child);
      facts.addCounts(el, child);
      const chars = facts.count(child, CHARS);
      if (childTag === 'a') facts.addCount(el, LINK_CHARS, chars - facts.count(child, LINK_CHARS));
      if (childTag === 'p') facts.addCount(el, PARAGRAPHS, 1);
      else if (childTag === 'li') facts.addCount(el, ITEMS, 1);
      if (BLOCK_TAGS.has(childTag) || facts.blocky(child)) {
        // A block ends the run of inline text before it; the element is then mixed.
        if (scored && run >= 25) this.scoreRun(el, run, runCommas, true);
        hasBlock = true;
        run = 0;
        runCommas = 0;
      } else {
        run += chars;
        runCommas += facts.count(child, COMMAS);
      }
    }
    if (hasBlock) facts.markBlocky(el);
    if (scored && run >= 25) this.scoreRun(el, run, runCommas, hasBlock);
    facts.markMeasured(el);
  }

  /**
   * A code listing is one run of text, measured as rendering takes it: whole. What is left inside it after parsing
   * (links, emphasis, an odd `<div>`) carries no structure to weigh, so its elements are counted, not judged, and no
   * block inside a listing can be chosen as the content on its own.
   */
  private measureCode(pre: HTMLElement): void {
    let chars = 0;
    let linkChars = 0;
    let commas = 0;
    for (let node: Node | null = pre; node !== null; ) {
      if (!isElement(node)) {
        const text = node.text;
        chars += visibleLength(text);
        commas += countCommas(text);
        node = nextNode(node, pre);
        continue;
      }
      // A link is counted whole, its text read at once; what is skipped is not counted.
      const isLink = node !== pre && tagOf(node) === 'a' && !isSkipped(node);
      if (isLink) {
        const text = textOfNode(node);
        const length = visibleLength(text);
        chars += length;
        linkChars += length;
        commas += countCommas(text);
      }
      node = nextNode(node, pre, node === pre || (!isLink && !isSkipped(node)));
    }
    const facts = this.facts;
    facts.addCount(pre, CHARS, chars);
    facts.addCount(pre, LINK_CHARS, linkChars);
    facts.addCount(pre, COMMAS, commas);
    if (chars >= 25) this.scoreRun(pre, chars, commas, false);
    facts.markMeasured(pre);
  }

  /** Furniture left out before scoring: chrome by tag, role or name, hidden elements, unlikely class/id words. */
  private leftOut(el: HTMLElement, tag: string): boolean {
    if (tag === 'body' || tag === 'html' || tag === 'main') return false;
    const attributes = readMarkup(el);
    if (isChromeByMarkup(tag, attributes)) return true;
    const style = attributes[STYLE];
    if (style && /display\s*:\s*none|visibility\s*:\s*hidden/i.test(style)) return true;
    if (!this.rules.stripUnlikely) return false;
    const names = namesIn(attributes);
    if (isChromeName(names)) return true;
    if (tag === 'a' || tag === 'article' || tag === 'table' || tag === 'code' || tag === 'pre') return false;
    return names.length > 0 && UNLIKELY_WORDS.test(names) && !MAYBE_CONTENT_WORDS.test(names);
  }

  /** A paragraph's score goes to the block that stands for it and up to five ancestors (halving, then thirding). */
  private scoreRun(container: HTMLElement, chars: number, commas: number, mixed: boolean): void {
    const points = 1 + commas + Math.min(Math.floor(chars / 100), 3);
    // A <p> (or a div holding only inline text) is the paragraph: its parent is the first to score.
    const standsAlone = PARAGRAPH_TAGS.has(tagOf(container)) || !mixed;
    let node: HTMLElement | null = standsAlone ? (container.parentNode as HTMLElement | null) : container;
    for (let level = 0; level < 5 && node?.rawTagName && tagOf(node) !== 'html'; level++, node = node.parentNode as HTMLElement | null) {
      const divider = level === 0 ? 1 : level === 1 ? 2 : level * 3;
      this.facts.setScore(node, (this.facts.score(node) ?? this.prior(node)) + points / divider);
    }
  }

  private prior(el: HTMLElement): number {
    return (TAG_PRIOR[tagOf(el)] ?? 0) + (this.rules.weighNames ? this.weight(el) : 0);
  }

  /**
   * `classWeight`, kept once weighed: most blocks are weighed when first scored and again when judged, and each time
   * read their attributes and ran two patterns over their names (docs/benchmarks.md).
   */
  private weight(el: HTMLElement): number {
    let weight = this.facts.weight(el);
    if (weight === undefined) this.facts.setWeight(el, (weight = classWeight(el)));
    return weight;
  }

  private linkDensity(el: HTMLElement): number {
    const chars = this.facts.count(el, CHARS);
    return chars > 0 ? Math.min(1, this.facts.count(el, LINK_CHARS) / chars) : 0;
  }

  final(el: HTMLElement): number {
    return (this.facts.score(el) ?? 0) * (1 - this.linkDensity(el));
  }

  /** Pass 2: the block with the best score, moved up where near-best blocks share an ancestor. */
  choose(body: HTMLElement): HTMLElement | null {
    // The best RANKED blocks, best first, ties in the order first scored (as a stable sort of them all would give):
    // all the choice reads of the ranking. A large page scores thousands of blocks.
    const ranked: [HTMLElement, number][] = [];
    for (const el of this.facts.scored()) {
      if (!this.facts.measured(el)) continue;
      const score = this.final(el);
      if (ranked.length === RANKED && score <= ranked[RANKED - 1]![1]) continue;
      let at = ranked.length;
      while (at > 0 && ranked[at - 1]![1] < score) at--;
      ranked.splice(at, 0, [el, score]);
      if (ranked.length > RANKED) ranked.pop();
    }
    const best = ranked[0];
    if (!best || best[1] <= 0) return null;
    let top = best[0];
    const topScore = best[1];
    // Several close runners-up inside one ancestor: the content is split into parts, take the whole.
    // Counted in loops, not filtered: the lists filter makes are of two kinds (none kept, some kept), and code
    // optimised on one was thrown away at the other.
    const isClose = (i: number) => ranked[i]![1] >= topScore * 0.75;
    let close = 0;
    for (let i = 1; i < ranked.length; i++) if (isClose(i)) close++;
    if (close >= 3) {
      for (let parent = top.parentNode as HTMLElement | null; parent?.rawTagName && parent !== body; parent = parent.parentNode as HTMLElement | null) {
        let inside = 0;
        for (let i = 1; i < ranked.length; i++) if (isClose(i) && contains(parent, ranked[i]![0])) inside++;
        if (inside >= 3) {
          top = parent;
          break;
        }
      }
    }
    // A parent scoring better than its best child holds more of the content.
    let last = this.final(top);
    const threshold = last / 3;
    for (let parent = top.parentNode as HTMLElement | null; parent?.rawTagName && parent !== body; parent = parent.parentNode as HTMLElement | null) {
      if (this.facts.score(parent) === undefined) continue;
      const score = this.final(parent);
      if (score < threshold) break;
      // ...unless most of the parent's text is elsewhere (a sidebar of its own scoring into it).
      if (score > last && this.facts.count(top, CHARS) >= this.facts.count(parent, CHARS) / 2) {
        top = parent;
        break;
      }
      last = score;
    }
    // A lone child is its parent's whole content.
    while (top.parentNode && (top.parentNode as HTMLElement).rawTagName && top.parentNode !== body && this.keptChildren(top.parentNode as HTMLElement) === 1) {
      top = top.parentNode as HTMLElement;
    }
    return top;
  }

  /** Child elements not skipped before scoring. */
  private keptChildren(el: HTMLElement): number {
    let n = 0;
    for (let child = el.firstChild; child !== null; child = child.nextSibling) if (isElement(child) && !this.facts.skipped(child)) n++;
    return n;
  }

  /** The content block with its siblings that score near it or read as prose. */
  withSiblings(top: HTMLElement, body: HTMLElement): HTMLElement[] {
    const parent = top.parentNode as HTMLElement | null;
    if (!parent?.rawTagName || top === body) return [top];
    const topScore = this.final(top);
    const threshold = Math.max(10, topScore * 0.2);
    const topClass = top.getAttribute('class') ?? '';
    const parts: HTMLElement[] = [];
    let seenTop = false;
    for (let sibling = parent.firstChild; sibling !== null; sibling = sibling.nextSibling) {
      if (!isElement(sibling) || this.facts.skipped(sibling)) continue;
      if (sibling === top) {
        parts.push(sibling);
        seenTop = true;
        continue;
      }
      const bonus = topClass && sibling.getAttribute('class') === topClass ? topScore * 0.2 : 0;
      if (this.facts.score(sibling) !== undefined && this.final(sibling) + bonus >= threshold) {
        parts.push(sibling);
        continue;
      }
      const stat = this.facts.stat(sibling);
      const tag = tagOf(sibling);
      if (!stat || stat.chars === 0) continue;
      const density = this.linkDensity(sibling);
      // A spec table or a list of plain facts beside a description is part of it.
      if ((tag === 'table' || tag === 'dl' || tag === 'ul' || tag === 'ol') && density < 0.2 && !this.dropped(sibling)) {
        parts.push(sibling);
        continue;
      }
      // A short content block (a product's description) is one of several boxes of facts: take the plain ones beside it.
      if (this.facts.count(top, CHARS) < 1000 && density < 0.1 && !this.dropped(sibling) && headingLevel(tag) === 0) {
        parts.push(sibling);
        continue;
      }
      // A lead-in before the body (a standfirst box under the headline) is prose the article opens with.
      if (!seenTop && tag !== 'p' && isLeadIn(sibling, stat, density) && !this.dropped(sibling) && (!this.rules.weighNames || this.weight(sibling) >= 0)) {
        parts.push(sibling);
        continue;
      }
      if (tag !== 'p') continue;
      if (stat.chars > 80 && density < 0.25) parts.push(sibling);
      else if (stat.chars <= 80 && density === 0 && /[.!?]["'”’)]?\s*$/.test(textOfNode(sibling).trim())) parts.push(sibling);
    }
    return parts;
  }

  /**
   * Pass 3 (asked while rendering): is this block inside the content furniture? Kept once given: rendering and
   * counting ask about the same block several times, and a verdict may read its text.
   */
  dropped(el: HTMLElement): boolean {
    let verdict = this.facts.verdict(el);
    if (verdict === undefined) this.facts.setVerdict(el, (verdict = this.judge(el)));
    return verdict;
  }

  private judge(el: HTMLElement): boolean {
    const facts = this.facts;
    if (facts.skipped(el)) return true;
    const tag = tagOf(el);
    // Inline elements (a "more" link inside a sentence) are prose; only blocks are judged. Asked before the counts are
    // read: every inline element of the content is asked once. The counts are read one by one, not as a Stat: that
    // object, made for each of a 2 MB page's 25,000 blocks, was the largest garbage of the judging.
    if (!facts.measured(el) || (!BLOCK_TAGS.has(tag) && !facts.blocky(el))) return false;
    const chars = facts.count(el, CHARS);
    if (chars > 0 && chars < 200 && chromeText(el)) return true;
    if (!this.rules.clean) return false;
    if (!CLEANED_TAGS.has(tag)) return false;
    const weight = this.rules.weighNames ? this.weight(el) : 0;
    const score = facts.score(el) ?? 0;
    if (weight + score < 0 && weight < 0) return true;
    if (facts.count(el, COMMAS) >= 10) return false;
    const isList = tag === 'ul' || tag === 'ol' || tag === 'dl';
    const density = this.linkDensity(el);
    const paragraphs = facts.count(el, PARAGRAPHS);
    const images = facts.count(el, IMAGES);
    const items = facts.count(el, ITEMS);
    const controls = facts.count(el, CONTROLS);
    if (images > 1 && paragraphs / images < 0.5 && chars < 200 && tag !== 'figure') return true;
    if (!isList && tag !== 'table' && items > paragraphs + 10 && density > 0.2) return true;
    if (controls > Math.floor(paragraphs / 3) && controls > 0) return true;
    if (!isList && chars < 25 && images === 0 && density > 0) return true;
    // Lists of short links are navigation; lists of sentences with links in them are content, and so is a list of
    // links right under a heading of the article (a "See also", the apps or projects a post names).
    if (isList && density > 0.5 && ((density > 0.8 && items >= 3) || chars / Math.max(1, items) < 40)) return !underHeading(el);
    if (!isList && weight < 25 && density > 0.33 && chars < 2000) return true;
    if (weight >= 25 && density > 0.5) return true;
    return false;
  }
}

/** The best block and its runners-up: the choice moves up to an ancestor that three of four close runners-up share. */
const RANKED = 5;

/** The blocks cleaning judges: containers that can hold a box of furniture. */
const CLEANED_TAGS = new Set(['div', 'section', 'table', 'ul', 'ol', 'dl', 'aside', 'header', 'footer', 'figure', 'nav']);

/** Is the element's previous sibling element a heading, with no text between them? */
function underHeading(el: HTMLElement): boolean {
  let heading = false;
  for (let node = el.parentNode?.firstChild ?? null; node !== null && node !== el; node = node.nextSibling) {
    if (isElement(node)) heading = headingLevel(tagOf(node)) > 0;
    else if (node.text.trim()) heading = false;
  }
  return heading;
}

/** A block of one or two sentences of plain prose, no list or table, ending like a sentence: a standfirst. */
function isLeadIn(el: HTMLElement, stat: Stat, density: number): boolean {
  if (!LEAD_IN_TAGS.has(tagOf(el)) || stat.chars < 80 || stat.chars > 1000 || density > 0.1 || stat.items > 0 || stat.images > 0 || stat.controls > 0) return false;
  return /[.!?…]["'”’»)]?$/.test(textOfNode(el).trim());
}
const LEAD_IN_TAGS = new Set(['div', 'section', 'header', 'p']);

function contains(ancestor: HTMLElement, el: HTMLElement): boolean {
  for (let node: HTMLElement | null = el; node; node = node.parentNode as HTMLElement | null) if (node === ancestor) return true;
  return false;
}

/** +25 for content words in class or id, -25 for furniture words, each attribute on its own. */
function classWeight(el: HTMLElement): number {
  const names = readNames(el);
  return nameWeight(names[0]) + nameWeight(names[1]);
}

function nameWeight(name: string | undefined): number {
  if (!name) return 0;
  return (FURNITURE_WORDS.test(name) ? -25 : 0) + (CONTENT_WORDS.test(name) ? 25 : 0);
}

/** A short block whose whole text is a button label, share row or cookie notice. */
function chromeText(el: HTMLElement): boolean {
  const raw = textOfNode(el);
  // Longer than any label, with no cookie, comment count or label mark in it: no rule below can match, and the
  // text need not be folded to say so.
  if (longerThan(raw, LONGEST_LABEL) && !LABEL_MARK.test(raw) && !COOKIE_OR_COUNT.test(raw)) return false;
  const text = collapse(raw);
  if (CHROME_TEXT.test(text)) return true;
  if (COOKIE_TEXT.test(text) && COOKIE_ASK.test(text)) return true;
  // A row of short labels that are all chrome ("Sign in | Register"). The text is folded, so only marks part them.
  if (!LABEL_MARK.test(text)) return false;
  const pieces = text.split(LABEL_SEPARATOR).filter(Boolean);
  return pieces.length > 1 && pieces.every((p) => CHROME_TEXT.test(p));
}

/** The longest text CHROME_TEXT matches but for a count of comments: "share this article on". */
const LONGEST_LABEL = 21;
/** What a text longer than any label needs, besides a label mark, for a rule of chromeText to match. */
const COOKIE_OR_COUNT = /cookie|comment/i;

/** Whether the text, white space folded and trimmed, would be longer than `chars`: it has more characters that are not white space. */
function longerThan(text: string, chars: number): boolean {
  let n = 0;
  for (let i = 0, length = text.length; i < length && n <= chars; i++) if (!isWhiteSpace(charCode(text, i))) n++;
  return n > chars;
}

function visibleLength(text: string): number {
  let n = 0;
  let space = true;
  for (let i = 0, length = text.length; i < length; i++) {
    const c = charCode(text, i);
    const isSpace = c === 32 || c === 10 || c === 9 || c === 13 || c === 160 || c === 12;
    if (isSpace) {
      if (!space) n++;
      space = true;
    } else {
      n++;
      space = false;
    }
  }
  return n;
}

function countCommas(text: string): number {
  let n = 0;
  for (let i = 0, length = text.length; i < length; i++) {
    const c = charCode(text, i);
    if (c === 44 || c === 0xff0c || c === 0x3001) n++;
  }
  return n;
}
