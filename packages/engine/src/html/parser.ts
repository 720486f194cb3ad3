import { charCode, isWhiteSpace } from './chars.js';
import type { NodePool } from './node-pool.js';
import { HTMLElement, TextNode, type Node } from './tree.js';

/**
 * HTML to a tree, in one pass over the text. Forgiving, like the parser the readers were built and measured with
 * (node-html-parser 9, whose tree this one reproduces node for node on real pages): a tag is `<name …>` with quoted
 * values that may hold `>`; anything else that starts with `<` is text. Elements an author leaves open are closed by
 * HTML's common rules (a `<li>` ends the `<li>` before it, a `</table>` the cells and rows in it), and whatever is
 * still open at the end is folded into its parent.
 *
 * `script`, `style`, `noscript` and `textarea` hold raw text up to their end tag, written as the start tag wrote it
 * (a script's or style's end tag may carry junk before its `>`, `</script\n<!-- note -->`, as browsers allow).
 * Comments are dropped; a CDATA section stays as text, markers included, and so does a `<!DOCTYPE …>`.
 *
 * Code listings lose their highlighting: from a `<pre>` to the first `</pre>` after it, span tags are skipped and the
 * text on either side of them is one text. Syntax highlighters (Pygments, highlight.js, Prism, Shiki) wrap every
 * token of a listing in a `<span>`: on a documentation site that is most of the page's elements, each one built,
 * indexed and collected, and none of them read (a listing is read as its text, see main-content.ts). Links, line
 * breaks and everything else in the listing stay. Done while parsing, not by rewriting the page first: a rewritten
 * copy of a large page is a large string made for nothing, and the tree's texts would hold it rather than the page.
 *
 * With `nodes`, the tree's elements and texts are taken from that pool (see NodePool); its root is always new.
 */
export function parseTree(html: string, nodes?: NodePool): HTMLElement {
  const root = new HTMLElement(null, '', 0);
  let elements = 0;
  const open: HTMLElement[] = [root];
  let parent = root;
  // Where text not yet added begins.
  let textStart = 0;
  const cdata = html.includes('<![CDATA[');
  // Every element keeps its tag's name: one string per name, not one per element.
  const names = new Map<string, string>();
  const intern = (name: string): string => {
    const known = names.get(name);
    if (known !== undefined) return known;
    names.set(name, name);
    return name;
  };

  const find = finder(html);
  // Inside a listing (before `listingEnd`), the text up to a skipped span tag, waiting for the text after it.
  let listingEnd = -1;
  let listingsMayEnd = true;
  let held = '';

  const addText = (end: number): void => {
    if (held !== '') {
      parent.appendChild(newText(nodes, held + html.slice(textStart, end)));
      held = '';
    } else if (end > textStart) parent.appendChild(newText(nodes, html.slice(textStart, end)));
  };
  const pop = (): void => {
    open.pop();
    parent = open[open.length - 1]!;
  };

  for (let at = html.indexOf('<'); at !== -1; at = html.indexOf('<', at)) {
    const next = html.charCodeAt(at + 1);
    if (next === BANG) {
      const comment = html.startsWith('<!--', at) ? find('-->', at + 4) : -1;
      if (comment !== -1) {
        addText(at);
        at = textStart = comment + 3;
        continue;
      }
      const section = cdata && html.startsWith('<![CDATA[', at) ? find(']]>', at + 9) : -1;
      if (section !== -1) {
        addText(at);
        parent.appendChild(newText(nodes, html.slice(at, section + 3)));
        at = textStart = section + 3;
        continue;
      }
      at++;
      continue;
    }

    if (at < listingEnd) {
      const end = spanTagEnd(html, at);
      if (end !== -1) {
        held += html.slice(textStart, at);
        at = textStart = end;
        continue;
      }
    }

    const tag = readTag(html, at, find);
    if (tag === null) {
      if (startsTag(html, at) && find('>', at) === -1) {
        // A page cut inside a tag: the tag is dropped, as browsers drop it, rather than read as text.
        addText(at);
        textStart = html.length;
        break;
      }
      at++;
      continue;
    }
    addText(at);
    at = textStart = tag.end;
    const name = intern(tag.name);
    if (!tag.closing && at > listingEnd && listingsMayEnd && startsListing(html, name, tag.start)) {
      listingEnd = listingEndAfter(html, at);
      // No `</pre>` after this one: none after any later one either, and no listing is ever closed.
      listingsMayEnd = listingEnd !== -1;
    }

    if (!tag.closing) {
      if (!tag.selfClosing) while (closes(CLOSED_BY_OPENING, parent.rawTagName, name)) pop();
      parent = parent.appendChild(newElement(nodes, name, tag.attributes, ++elements));
      open.push(parent);
      if (RAW_TEXT.has(parent.name)) {
        const close = rawTextEnd(html, name, at, find);
        const textEnd = close === null ? html.length : close.start;
        if (textEnd > at && /\S/.test(html.slice(at, textEnd))) parent.appendChild(newText(nodes, html.slice(at, textEnd)));
        if (close === null) {
          // The rest of the page is this element's text.
          textStart = html.length;
          if (tag.selfClosing) pop();
          break;
        }
        at = textStart = close.end;
        pop();
        continue;
      }
    }

    if (tag.closing || tag.selfClosing || isVoid(name)) closeElement(name);
  }
  addText(html.length);
  foldUnclosed(open);
  return root;

  /** An end tag (or a self-closed or void start tag): close the element it names, and what its closing implies. */
  function closeElement(name: string): void {
    while (true) {
      if (parent.rawTagName === name) {
        pop();
        return;
      }
      if (closes(CLOSED_BY_CLOSING, parent.name, name)) {
        pop();
        continue;
      }
      // A `</div>` (say) ends a paragraph left open inside that div, unless the paragraph sits in an inline element.
      if (parent.name === 'p' && open.length > 1) {
        const container = open[open.length - 2]!;
        const closing = name.toLowerCase();
        if (container.name === closing && !P_KEPT_OPEN_BY.has(closing)) {
          pop();
          continue;
        }
      }
      return;
    }
  }
}

// Functions of the module, not closures made at each parse: a closure is a new call target at every page, and code
// that had inlined the last page's threw itself away.
function newElement(nodes: NodePool | undefined, name: string, rawAttrs: string, index: number): HTMLElement {
  return nodes ? nodes.element(name, rawAttrs, index) : new HTMLElement(name, rawAttrs, index);
}

function newText(nodes: NodePool | undefined, rawText: string): TextNode {
  return nodes ? nodes.text(rawText) : new TextNode(rawText);
}

const BANG = 0x21;

/**
 * Where the raw text of the element `name` (as its start tag wrote it) ends: its end tag, written in the same case,
 * and for a script or style one with junk before its `>`. Null when it never ends.
 */
function rawTextEnd(html: string, name: string, from: number, find: Find): { start: number; end: number } | null {
  if (!LOOSE_ENDS.has(name.toLowerCase())) {
    const start = find(`</${name}>`, from);
    return start === -1 ? null : { start, end: start + name.length + 3 };
  }
  let pattern = endTags.get(name);
  if (!pattern) endTags.set(name, (pattern = new RegExp(`</${name}(?:\\s[^>]*)?>`, 'g')));
  pattern.lastIndex = from;
  const found = pattern.exec(html);
  return found === null ? null : { start: found.index, end: found.index + found[0].length };
}
const LOOSE_ENDS = new Set(['script', 'style']);
const endTags = new Map<string, RegExp>();

/** Whether the start tag `name` at `at` opens a code listing: `<pre` followed by white space or `>`, in any case. */
function startsListing(html: string, name: string, at: number): boolean {
  if (name.length !== 3 || name.toLowerCase() !== 'pre') return false;
  return html.charCodeAt(at + 4) === GT || isWhiteSpace(html.charCodeAt(at + 4));
}

/** Where the listing whose start tag ends at `from` ends: at the first `</pre>` after it; -1 when none does. */
function listingEndAfter(html: string, from: number): number {
  LISTING_END.lastIndex = from;
  return LISTING_END.exec(html)?.index ?? -1;
}
const LISTING_END = /<\/pre\s*>/gi;

/** Just past the span's start or end tag at `at`, its first `>` outside quoted values; -1 when no span tag is there. */
function spanTagEnd(html: string, at: number): number {
  const c = html.charCodeAt(at + 1);
  if (c !== SLASH && (c | 0x20) !== 0x73) return -1;
  SPAN_TAG.lastIndex = at;
  // `test`, not `exec`: a match's array and its copy of the tag were garbage made for every span of a highlighted
  // listing (a source page has thousands), the parser's largest allocation on real sites. A sticky match ends at lastIndex.
  return SPAN_TAG.test(html) ? SPAN_TAG.lastIndex : -1;
}
/** A span's start or end tag; quoted attribute values may hold `>`. Sticky: it matches at `lastIndex` or not at all. */
const SPAN_TAG = /<\/?span(?:\s(?:[^>"']|"[^"]*"|'[^']*')*)?>/iy;

/** `html.indexOf(needle, from)`. */
type Find = (needle: string, from: number) => number;

/**
 * `indexOf` that remembers its last answer for each needle. The parser asks from positions that only move forward, so
 * the answer usually still holds: a page of unclosed `<!--`, or of tags with quotes and no `>`, is read in linear time
 * instead of scanning to its end once for each.
 */
function finder(html: string): Find {
  const last = new Map<string, { from: number; at: number }>();
  return (needle, from) => {
    const known = last.get(needle);
    // The first occurrence at or after `known.from` is `known.at`; it is the first at or after `from` too when `from`
    // lies between them (or there is none after either).
    if (known && known.from <= from && (known.at === -1 || known.at >= from)) return known.at;
    const at = html.indexOf(needle, from);
    // Updated in place: the parser asks tens of thousands of times a page.
    if (known) {
      known.from = from;
      known.at = at;
    } else last.set(needle, { from, at });
    return at;
  };
}

interface Tag {
  /** Where its `<` is. */
  start: number;
  name: string;
  closing: boolean;
  selfClosing: boolean;
  /** The attributes as written, without the white space after the name. */
  attributes: string;
  /** Just past the `>`. */
  end: number;
}

/**
 * The tag starting at `<` at `at`, or null when none does (`< 3`, `<a"b>`, a `<` never followed by its `>`). The
 * tag ends at the first `>` outside a quoted value; a quote that is never closed, or closed by a quote not followed by
 * white space or the tag's end, is an ordinary character.
 */
function readTag(html: string, at: number, find: Find): Tag | null {
  if (!startsTag(html, at)) return null;
  lastTag.start = at;
  let i = at + 1;
  const closing = charCode(html, i) === SLASH;
  if (closing) i++;
  const nameStart = i;
  while (i < html.length && isNameChar(charCode(html, i))) i++;
  // A name may hold a no-break space; when the tag cannot end after the whole name, the name ends at that space.
  for (let nameEnd = i; nameEnd > nameStart; nameEnd = lastSpaceInName(html, nameStart, nameEnd)) {
    const tag = readRest(html, nameAt(html, nameStart, nameEnd), closing, nameEnd, find);
    if (tag) return tag;
  }
  return null;
}

/**
 * The tag name `html[start, end)`, as one string the pages' tags share: the name last read with the same first
 * character and length is taken again when the page repeats it (nearly every tag: `div`, `a`, `span`, `p`), so no copy
 * is made for the tag, and the parser's look-up of the name finds its hash kept in the string, not worked out again.
 * Names of SHARED_NAME_CHARS or more are copied each time: V8 makes such a copy a view into the page, which kept here
 * would keep the whole page.
 */
function nameAt(html: string, start: number, end: number): string {
  const length = end - start;
  if (length >= SHARED_NAME_CHARS) return html.slice(start, end);
  const slot = (html.charCodeAt(start) * 16 + length) & (NAME_SLOTS - 1);
  const known = recentNames[slot]!;
  if (known.length === length && html.startsWith(known, start)) return known;
  return (recentNames[slot] = html.slice(start, end));
}
const SHARED_NAME_CHARS = 13;
const NAME_SLOTS = 512;
const recentNames: string[] = new Array<string>(NAME_SLOTS).fill('');

/** Whether `<` at `at` starts a start or end tag: a letter follows it, or `/` and a letter. */
function startsTag(html: string, at: number): boolean {
  const c = html.charCodeAt(at + 1);
  return isLetter(c === SLASH ? html.charCodeAt(at + 2) : c);
}

/** After the tag's name: nothing, `/`, or white space and the attributes; then `>`. */
function readRest(html: string, name: string, closing: boolean, afterName: number, find: Find): Tag | null {
  const c = html.charCodeAt(afterName);
  if (c === GT) return read(name, closing, false, '', afterName + 1);
  if (c === SLASH) return html.charCodeAt(afterName + 1) === GT ? read(name, closing, !closing, '', afterName + 2) : null;
  // No `>` after the name: no tag here (and the scan below would run to the page's end, once for each try).
  if (!isWhiteSpace(c) || find('>', afterName) === -1) return null;
  let i = afterName + 1;
  while (i < html.length) {
    const ch = charCode(html, i);
    if (ch === GT) break;
    if (ch === QUOTE || ch === APOSTROPHE) {
      const shut = find(html[i]!, i + 1);
      if (shut !== -1 && endsValue(html, shut + 1) && find('>', shut + 1) !== -1) {
        i = shut + 1;
        continue;
      }
    }
    i++;
  }
  if (i >= html.length) return null;
  let attributes = html.slice(afterName + 1, i);
  let selfClosing = !closing && charCode(html, i - 1) === SLASH;
  if (selfClosing) {
    attributes = attributes.slice(0, -1);
    // `<a href=/post/>`: the slash ends an unquoted value, it does not close the element.
    if (!isVoid(name) && UNQUOTED_VALUE_AT_END.test(html.slice(afterName, i - 1))) {
      attributes += '/';
      selfClosing = false;
    }
  }
  return read(name, closing, selfClosing, attributes, i + 1);
}

/**
 * The tag just read, filled in place: a page has tens of thousands of tags, and the parser is done with each before it
 * reads the next, so one object serves them all rather than one of garbage each.
 */
const lastTag: Tag = { start: 0, name: '', closing: false, selfClosing: false, attributes: '', end: 0 };

function read(name: string, closing: boolean, selfClosing: boolean, attributes: string, end: number): Tag {
  lastTag.name = name;
  lastTag.closing = closing;
  lastTag.selfClosing = selfClosing;
  lastTag.attributes = attributes;
  lastTag.end = end;
  return lastTag;
}

/**
 * Whether a quoted value may end before `i`: white space, `>` or `/>` follows it. A quote followed by anything else
 * (`title="say "hi" now"`) is an ordinary character, not the end of the value.
 */
function endsValue(html: string, i: number): boolean {
  const c = html.charCodeAt(i);
  return c === GT || isWhiteSpace(c) || (c === SLASH && html.charCodeAt(i + 1) === GT);
}

const SLASH = 0x2f;
const GT = 0x3e;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;

const UNQUOTED_VALUE_AT_END = /\s[^\s"'<>=/]+\s*=\s*[^\s"'<>`]+$/;

const isLetter = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
/**
 * A character of a tag's name: ASCII letters, digits and `-.:@`, the ASCII signs after `E` (`[\\]^_\`{|}~`), and
 * most of Unicode's letters and marks (not its spaces, punctuation and symbols from U+2000, nor private use).
 */
function isNameChar(c: number): boolean {
  if (c < 0x46) return (c >= 0x40 && c <= 0x45) || (c >= 0x30 && c <= 0x3a) || c === 0x2d || c === 0x2e;
  if (c < 0x2000) return true;
  return (
    c === 0x200c || c === 0x200d || c === 0x203f || c === 0x2040 || (c >= 0x2070 && c <= 0x218f) || (c >= 0x2c00 && c <= 0x2fef) ||
    (c >= 0x3001 && c <= 0xd7ff) || (c >= 0xf900 && c <= 0xfdcf) || (c >= 0xfdf0 && c <= 0xfffd)
  );
}

/** The last no-break space (U+00A0, U+1680, U+FEFF) inside a name, past its first character; `start` when none. */
function lastSpaceInName(html: string, start: number, end: number): number {
  for (let i = end - 1; i > start; i--) {
    const c = charCode(html, i);
    if (c === 0xa0 || c === 0x1680 || c === 0xfeff) return i;
  }
  return start;
}

/** Elements that have no content and no end tag. */
const VOID_ELEMENTS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);

/**
 * Void elements as HTML writes them, in lower or upper case. A name that starts in lower case and is not one of them
 * is answered at the first look-up: nearly every tag of a page, each of which paid a lower-case copy and a second one.
 */
function isVoid(name: string): boolean {
  if (VOID_ELEMENTS.has(name)) return true;
  const first = name.charCodeAt(0);
  return first >= 0x41 && first <= 0x5a && VOID_ELEMENTS.has(name.toLowerCase()) && name === name.toUpperCase();
}

/** Elements whose content is raw text up to their end tag. */
const RAW_TEXT = new Set(['script', 'style', 'noscript', 'textarea']);

/** Inline elements a paragraph may be left open in when their container closes. */
const P_KEPT_OPEN_BY = new Set(['a', 'audio', 'del', 'ins', 'map', 'noscript', 'video']);

type Rules = ReadonlyMap<string, ReadonlySet<string>>;

/**
 * Whether `tag` (a start or end tag, as written) closes the open element `open`. Tags are matched in lower or upper
 * case as written, not in mixed case.
 */
function closes(rules: Rules, open: string | null, tag: string): boolean {
  if (open === null) return false;
  const closers = rules.get(open);
  return closers !== undefined && closers.has(tag);
}

/** Rules keyed and valued in both cases: `li` and `LI` close `li` and `LI`. */
function rules(table: Record<string, string>): Rules {
  const out = new Map<string, Set<string>>();
  for (const [open, closers] of Object.entries(table)) {
    const both = new Set(closers.split(' ').flatMap((tag) => [tag, tag.toUpperCase()]));
    out.set(open, both);
    out.set(open.toUpperCase(), both);
  }
  return out;
}

/** A start tag of one of these ends the open element: `<li>` after an open `<li>`, `<div>` in an open `<p>`. */
const CLOSED_BY_OPENING = rules({
  li: 'li',
  p: 'p div',
  b: 'div',
  td: 'td th tr tbody tfoot',
  th: 'td th tr tbody tfoot',
  tr: 'tr tbody tfoot',
  thead: 'tbody tfoot',
  tbody: 'tbody tfoot',
  h1: 'h1',
  h2: 'h2',
  h3: 'h3',
  h4: 'h4',
  h5: 'h5',
  h6: 'h6',
  dt: 'dt dd',
  dd: 'dt dd',
});

/** An end tag of one of these ends the open element on its way: `</ul>` an open `<li>`, `</table>` an open cell. */
const CLOSED_BY_CLOSING = rules({
  li: 'ul ol',
  a: 'div',
  b: 'div',
  i: 'div',
  p: 'div',
  td: 'tr table thead tbody tfoot',
  th: 'tr table thead tbody tfoot',
  tr: 'table thead tbody tfoot',
  thead: 'table',
  tbody: 'table',
  tfoot: 'table',
  dt: 'dl body html',
  dd: 'dl body html',
});

/**
 * Elements still open at the end, from the last one opened: each one's children move to the end of the element it
 * was opened in (of that element's parent instead when both have the same tag, the second closing the first), and
 * it is taken out, empty. The one opened in the root stays. The moves are noted and made once at the end: made level
 * by level, a page of thousands of unclosed tags would move its content once per level.
 */
function foldUnclosed(open: HTMLElement[]): void {
  const received = new Map<HTMLElement, HTMLElement[]>();
  const give = (from: HTMLElement, to: HTMLElement): void => {
    const list = received.get(to);
    if (list) list.push(from);
    else received.set(to, [from]);
  };
  const folded = new Set<HTMLElement>();
  for (let i = open.length - 1; i > 1; ) {
    const last = open[i]!;
    const below = open[i - 1]!;
    below.removeChild(last);
    folded.add(last);
    if (last.name === below.name) {
      give(last, below.parentNode!);
      i -= 2;
    } else {
      give(last, below);
      i -= 1;
    }
  }
  for (const [holder] of received) {
    if (folded.has(holder)) continue;
    const children = gathered(holder, received);
    holder.firstChild = holder.lastChild = null;
    for (const node of children) holder.appendChild(node);
  }
}

/** The children `holder` ends with: its own, then those of each element folded into it, recursively, in order. */
function gathered(holder: HTMLElement, received: ReadonlyMap<HTMLElement, HTMLElement[]>): Node[] {
  const out: Node[] = [];
  const todo: (HTMLElement | Node[])[] = [holder];
  while (todo.length > 0) {
    const item = todo.pop()!;
    if (Array.isArray(item)) {
      for (const node of item) out.push(node);
      continue;
    }
    const own: Node[] = [];
    for (let child = item.firstChild; child !== null; child = child.nextSibling) own.push(child);
    item.firstChild = item.lastChild = null;
    const more = received.get(item) ?? [];
    for (let j = more.length - 1; j >= 0; j--) todo.push(more[j]!);
    todo.push(own);
  }
  return out;
}
