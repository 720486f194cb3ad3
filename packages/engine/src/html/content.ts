import { collapse, isElement, tagOf, TEXT, type HTMLElement, type Node } from './dom.js';
import { resolveUrl } from './url.js';
import { TextMeasure } from './text-stats.js';
import { TreeIndex } from './tree-index.js';

const DROP_TAGS = new Set(['script', 'style', 'noscript', 'template', 'svg', 'iframe', 'form', 'button', 'select', 'input', 'textarea', 'canvas', 'object', 'embed', 'dialog']);
const CHROME_TAGS = new Set(['nav', 'header', 'footer', 'aside']);
const CHROME_ROLES = /^(navigation|banner|contentinfo|complementary|search|dialog|alert)$/i;
const CHROME_NAMES = /(^|[\s_-])(cookie|consent|gdpr|share|sharing|social|breadcrumbs?|sidebar|side-bar|menu|navbar|related|advert|ads?|promo|newsletter|subscribe|popup|modal|skip-link|comments?|footer|header|masthead|toolbar|pagination|pager|widget)([\s_-]|$)/i;
const BLOCK_TAGS = new Set(['p', 'div', 'section', 'article', 'main', 'ul', 'ol', 'li', 'table', 'tr', 'pre', 'blockquote', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'dl', 'dt', 'dd', 'figure', 'figcaption', 'hr', 'br', 'header', 'footer', 'aside', 'nav', 'address', 'details', 'summary']);

/** Is this element page furniture (navigation, banners, cookie notices) rather than content? */
export function isChrome(el: HTMLElement): boolean {
  const tag = tagOf(el);
  if (CHROME_TAGS.has(tag)) return true;
  if (CHROME_ROLES.test(el.getAttribute('role') ?? '')) return true;
  if (el.getAttribute('aria-hidden') === 'true' || el.getAttribute('hidden') !== undefined) return true;
  const names = `${el.getAttribute('class') ?? ''} ${el.getAttribute('id') ?? ''}`;
  return names.trim() !== '' && CHROME_NAMES.test(names) && !/(^|\s)(content|article|post|main|entry)(\s|$)/i.test(names);
}

/** The page's main content as text and markdown. The tree is left as it was, so later readers (extraction's DOM patterns) can use the same parse. */
export function renderMain(root: HTMLElement, base: string): Rendered {
  const container = mainContent(root);
  const taken: [HTMLElement, Node[]][] = [];
  strip(container, taken);
  try {
    return render(container, base);
  } finally {
    for (const [el, children] of taken) el.childNodes = children;
  }
}

/**
 * Takes scripts and page furniture out of the candidate, keeping its own content. Each changed
 * element's original child list goes to `taken` so the caller can put it back.
 */
function strip(el: HTMLElement, taken: [HTMLElement, Node[]][]): void {
  const kept: Node[] = [];
  for (const child of el.childNodes) {
    if (isElement(child)) {
      if (DROP_TAGS.has(tagOf(child)) || isChrome(child)) continue;
      strip(child, taken);
    }
    kept.push(child);
  }
  if (kept.length === el.childNodes.length) return;
  taken.push([el, el.childNodes]);
  el.childNodes = kept;
}

/**
 * The element holding the page's main content: an explicit <main>/<article>/[role=main]
 * when the page has exactly one, else the block that collects the most paragraph text
 * with the least link text (paragraph scores flow to parent and grandparent).
 */
export function mainContent(root: HTMLElement): HTMLElement {
  const body = root.querySelector('body') ?? root;
  const explicit = ['main', '[role="main"]', 'article'].map((s) => root.querySelectorAll(s)).find((found) => found.length === 1)?.[0];
  if (explicit) return explicit;
  // Text lengths and link text measured once per element, not once per candidate containing it.
  const measure = new TextMeasure();
  return widen(bestBlock(body, measure), body, measure) ?? body;
}

function bestBlock(body: HTMLElement, measure: TextMeasure): HTMLElement | null {
  const scores = new Map<HTMLElement, number>();
  // One walk in document order (the selector query copies its partial results at every level).
  for (const p of new TreeIndex(body).tags(['p', 'pre', 'td', 'blockquote'])) {
    const text = measure.of(p);
    if (text.length < 25) continue;
    const score = 1 + text.commas + Math.min(text.length / 100, 3);
    const parent = p.parentNode as HTMLElement | null;
    if (parent) scores.set(parent, (scores.get(parent) ?? 0) + score);
    const grand = parent?.parentNode as HTMLElement | null;
    if (grand) scores.set(grand, (scores.get(grand) ?? 0) + score / 2);
  }
  let best: HTMLElement | null = null;
  let bestScore = 0;
  for (const [el, score] of scores) {
    if (!el.tagName || isChrome(el)) continue;
    const adjusted = score * (1 - measure.linkDensity(el));
    if (adjusted > bestScore) [best, bestScore] = [el, adjusted];
  }
  return best;
}

/**
 * A paragraph cluster is often one part of the content (a product's description beside its
 * spec table): climb while the enclosing block is still content rather than link lists.
 */
function widen(block: HTMLElement | null, body: HTMLElement, measure: TextMeasure): HTMLElement | null {
  let current = block;
  for (let parent = current?.parentNode as HTMLElement | null; current && parent?.tagName && parent !== body; parent = parent.parentNode as HTMLElement | null) {
    if (isChrome(parent) || measure.linkDensity(parent) > 0.25) break;
    current = parent;
  }
  return current;
}

export function linkDensity(el: HTMLElement): number {
  return new TextMeasure().linkDensity(el);
}

export interface Rendered {
  text: string;
  markdown: string;
}

/** Renders content as plain text (paragraphs split by blank lines) and as markdown, in one walk. */
export function render(el: HTMLElement, base: string): Rendered {
  const blocks: { text: string; markdown: string }[] = [];
  walkBlocks(el, base, blocks, 0);
  const join = (key: 'text' | 'markdown') =>
    blocks
      .map((b) => b[key].trim())
      .filter(Boolean)
      .join('\n\n');
  return { text: join('text'), markdown: join('markdown') };
}

function walkBlocks(el: HTMLElement, base: string, out: { text: string; markdown: string }[], listDepth: number): void {
  let inline: Node[] = [];
  const flush = () => {
    if (inline.length === 0) return;
    const text = collapse(inline.map((n) => inlineText(n)).join(''));
    const markdown = collapse(inline.map((n) => inlineMarkdown(n, base)).join(''));
    if (text) out.push({ text, markdown });
    inline = [];
  };
  for (const child of el.childNodes) {
    if (!isElement(child)) {
      if (child.nodeType === TEXT) inline.push(child);
      continue;
    }
    const tag = tagOf(child);
    if (!BLOCK_TAGS.has(tag)) {
      inline.push(child);
      continue;
    }
    flush();
    const heading = /^h([1-6])$/.exec(tag);
    if (heading) {
      const text = collapse(child.text);
      if (text) out.push({ text, markdown: `${'#'.repeat(Number(heading[1]))} ${inlineMarkdownOf(child, base)}` });
    } else if (tag === 'pre') {
      const code = child.text.replace(/\n+$/, '');
      if (code.trim()) out.push({ text: code, markdown: `\`\`\`\n${code}\n\`\`\`` });
    } else if (tag === 'ul' || tag === 'ol') {
      const items = child.childNodes.filter(isElement).filter((li) => tagOf(li) === 'li');
      const lines = items.map((li, i) => ({
        text: collapse(li.text),
        markdown: `${'  '.repeat(listDepth)}${tag === 'ol' ? `${i + 1}.` : '-'} ${inlineMarkdownOf(li, base)}`,
      }));
      const kept = lines.filter((l) => l.text);
      if (kept.length > 0) out.push({ text: kept.map((l) => l.text).join('\n'), markdown: kept.map((l) => l.markdown).join('\n') });
    } else if (tag === 'table') {
      out.push(renderTable(child, base));
    } else if (tag === 'blockquote') {
      const inner: { text: string; markdown: string }[] = [];
      walkBlocks(child, base, inner, listDepth);
      if (inner.length > 0) {
        out.push({ text: inner.map((b) => b.text).join('\n'), markdown: inner.map((b) => b.markdown.replace(/^/gm, '> ')).join('\n>\n') });
      }
    } else if (tag === 'hr') {
      out.push({ text: '', markdown: '---' });
    } else if (tag !== 'br') {
      walkBlocks(child, base, out, listDepth);
    }
  }
  flush();
}

function renderTable(table: HTMLElement, base: string): { text: string; markdown: string } {
  const rows = table.querySelectorAll('tr').map((tr) =>
    tr.childNodes.filter(isElement).filter((c) => ['td', 'th'].includes(tagOf(c))),
  );
  const cells = rows.filter((r) => r.length > 0);
  if (cells.length === 0) return { text: '', markdown: '' };
  const width = Math.max(...cells.map((r) => r.length));
  const md = cells.map((r) => `| ${Array.from({ length: width }, (_, i) => (r[i] ? inlineMarkdownOf(r[i], base).replace(/\|/g, '\\|') : '')).join(' | ')} |`);
  md.splice(1, 0, `|${' --- |'.repeat(width)}`);
  return { text: cells.map((r) => r.map((c) => collapse(c.text)).join(': ')).join('\n'), markdown: md.join('\n') };
}

const inlineText = (node: Node): string => (isElement(node) && tagOf(node) === 'br' ? ' ' : node.text);

const inlineMarkdownOf = (el: HTMLElement, base: string) => collapse(el.childNodes.map((n) => inlineMarkdown(n, base)).join(''));

function inlineMarkdown(node: Node, base: string): string {
  if (!isElement(node)) return node.nodeType === TEXT ? node.text.replace(/([*_`[\]])/g, '\\$1') : '';
  const tag = tagOf(node);
  const inner = () => node.childNodes.map((n) => inlineMarkdown(n, base)).join('');
  switch (tag) {
    case 'a': {
      const href = resolveUrl(node.getAttribute('href'), base);
      const label = collapse(inner());
      return href && label ? `[${label}](${href})` : label;
    }
    case 'strong':
    case 'b':
      return wrap('**', inner());
    case 'em':
    case 'i':
      return wrap('_', inner());
    case 'code':
      return node.text.trim() ? `\`${node.text.trim()}\`` : '';
    case 'img': {
      const src = resolveUrl(node.getAttribute('src'), base);
      return src ? `![${node.getAttribute('alt') ?? ''}](${src})` : '';
    }
    case 'br':
      return ' ';
    default:
      return DROP_TAGS.has(tag) ? '' : inner();
  }
}

const wrap = (mark: string, text: string) => (text.trim() ? `${mark}${text.trim()}${mark}` : '');
