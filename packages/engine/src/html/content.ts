import { charCode, childElements, collapse, descendantsByTag, firstDescendant, headingLevel, isElement, tagOf, TEXT, textOfNode, type HTMLElement, type Node } from './dom.js';
import { BLOCK_TAGS, findMainContent, isSkipped } from './main-content.js';
import type { TreeIndex } from './tree-index.js';
import type { UrlResolver } from './url.js';

export { isChrome } from './chrome.js';

/** The page's main content as text and markdown. The tree is not changed, so later readers (extraction's DOM patterns) can use the same parse. */
export function renderMain(root: HTMLElement, resolve: UrlResolver, index: TreeIndex): Rendered {
  const { parts, dropped } = findMainContent(root, index);
  // Empty, unless a walk was cut short by a throw (a stack overflowed by deep nesting) and left its run behind.
  inlineRun.length = 0;
  const page = new PageText();
  const ctx = { resolve, dropped };
  // The parts are walked as the children of one element are (see walkBlocks), their run from the list's start.
  for (const part of parts) walkNode(part, 0, ctx, page, 0);
  flushInline(0, ctx, page);
  return page.rendered();
}

export interface Rendered {
  text: string;
  markdown: string;
}

interface Block {
  text: string;
  markdown: string;
  /** A list rendered inside a list item: it goes on its own lines under the item. */
  nested: boolean;
}

/**
 * Every block is made here, so all have one shape. Blocks with and without `nested` were two shapes: the optimised
 * walk, compiled for the one it had met, was thrown away and compiled again as each new mix of them came (nine times
 * over two sites' first 800 pages, 50 to 80 ms of compiling each; docs/benchmarks.md).
 */
const block = (text: string, markdown: string, nested = false): Block => ({ text, markdown, nested });

interface RenderContext {
  resolve: UrlResolver;
  dropped(el: HTMLElement): boolean;
}

/** Where a walk puts the blocks it makes: a list's or a quote's array of them, or the page's text. */
interface BlockOut {
  push(block: Block): unknown;
}

/**
 * The page's text and markdown, its blocks apart by a blank line and empty ones left out, joined a chunk of blocks at a
 * time as they come. Kept to the end and joined there, a 2 MB page's 16,000 blocks were read again long after they
 * were made, each a trip out of the cache: the join took 22 ms there against 0.3 ms for a 100 KB page's 840 blocks
 * (docs/benchmarks.md). A chunk is joined while its blocks are fresh, and the final join reads a few long strings.
 */
class PageText implements BlockOut {
  private readonly text = new JoinedParts();
  private readonly markdown = new JoinedParts();

  push(block: Block): void {
    this.text.add(block.text.trim());
    this.markdown.add(block.markdown.trim());
  }

  rendered(): Rendered {
    return { text: this.text.joined(), markdown: this.markdown.joined() };
  }
}

/** Blocks joined into each chunk of CHUNK_PARTS; a page's text is its chunks joined, with the same blank line between them. */
class JoinedParts {
  private readonly parts: string[] = [];
  private readonly chunks: string[] = [];

  add(part: string): void {
    if (!part) return;
    this.parts.push(part);
    if (this.parts.length === CHUNK_PARTS) this.flush();
  }

  joined(): string {
    this.flush();
    return this.chunks.join(BLANK_LINE);
  }

  private flush(): void {
    if (this.parts.length === 0) return;
    this.chunks.push(this.parts.join(BLANK_LINE));
    this.parts.length = 0;
  }
}
const CHUNK_PARTS = 32;
const BLANK_LINE = '\n\n';

/** Line breaks as spaces. Most items are one line already, and a global replace costs even when it matches nothing. */
const oneLine = (markdown: string): string => (markdown.includes('\n') ? markdown.replace(/\n+/g, ' ') : markdown);

/** As `.replace(/\n+$/, '')`, but a slice: the regex would copy the whole listing to drop its last line break. */
function withoutTrailingNewlines(text: string): string {
  let end = text.length;
  while (end > 0 && charCode(text, end - 1) === 0x0a) end--;
  return end === text.length ? text : text.slice(0, end);
}

const leftOut = (el: HTMLElement, ctx: RenderContext) => isSkipped(el) || ctx.dropped(el);

/** The children of `el` as blocks into `out`: runs of inline nodes gathered into one block each. */
function walkBlocks(el: HTMLElement, ctx: RenderContext, out: BlockOut, listDepth: number): void {
  // This walk's run of inline nodes sits at the end of the shared list, from `run` on.
  const run = inlineRun.length;
  for (let child = el.firstChild; child !== null; child = child.nextSibling) walkNode(child, run, ctx, out, listDepth);
  flushInline(run, ctx, out);
}

/** One node of a walk whose run of inline nodes starts at `run`: inline, added to the run; a block, rendered into `out`. */
function walkNode(child: Node, run: number, ctx: RenderContext, out: BlockOut, listDepth: number): void {
  if (!isElement(child)) {
    if (child.nodeType === TEXT) inlineRun.push(child);
    return;
  }
  const tag = tagOf(child);
  if (!BLOCK_TAGS.has(tag) || tag === 'br') {
    inlineRun.push(child);
    return;
  }
  if (leftOut(child, ctx)) return;
  flushInline(run, ctx, out);
  const level = headingLevel(tag);
  if (level > 0) {
    const text = collapse(inlineText(child, ctx));
    if (text) out.push(block(text, `${'#'.repeat(level)} ${inlineMarkdownOf(child, ctx)}`));
  } else if (tag === 'pre') {
    const code = withoutTrailingNewlines(textOfNode(child));
    if (code.trim()) out.push(block(code, `\`\`\`\n${code}\n\`\`\``));
  } else if (tag === 'ul' || tag === 'ol') {
    const list = renderList(child, ctx, listDepth);
    if (list) out.push(list);
  } else if (tag === 'table') {
    if (isLayoutTable(child)) walkBlocks(child, ctx, out, listDepth);
    else out.push(renderTable(child, ctx));
  } else if (tag === 'blockquote') {
    const quote = renderQuote(child, ctx, listDepth);
    if (quote) out.push(quote);
  } else if (tag === 'hr') {
    out.push(block('', '---'));
  } else {
    walkBlocks(child, ctx, out, listDepth);
  }
}

/**
 * A list as one block, an item a line, a list inside an item on the lines under it. Lists and quotes are rendered by
 * functions of their own, not in walkNode: their arrays of blocks come in shapes walkNode's optimised code had not met
 * (an item without blocks, a list of one), and each such page threw that code away and compiled it again. The item's
 * and the list's strings are built in one loop each, not by filtering, mapping and joining its blocks: an array left
 * empty by a filter is of another kind than a filled one, and the first item with a list inside threw this function's
 * optimised code away, three to six times in a first crawl of a documentation site (docs/benchmarks.md).
 */
function renderList(list: HTMLElement, ctx: RenderContext, listDepth: number): Block | null {
  const ordered = tagOf(list) === 'ol';
  const lines: Block[] = [];
  let number = 0;
  for (let li = list.firstChild; li !== null; li = li.nextSibling) {
    if (!isElement(li) || leftOut(li, ctx)) continue;
    if (tagOf(li) !== 'li') {
      walkBlocks(li, ctx, lines, listDepth);
      continue;
    }
    number++;
    const parts: Block[] = [];
    walkBlocks(li, ctx, parts, listDepth + 1);
    // The item's text: its blocks' texts a line each. Its line: its own blocks' markdown on one line. Under it: the
    // markdown of the lists inside it.
    let text = '';
    let line = '';
    let own = 0;
    let nested = '';
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      text += i === 0 ? part.text : `\n${part.text}`;
      if (part.nested) nested += `\n${part.markdown}`;
      else line += own++ === 0 ? oneLine(part.markdown) : ` ${oneLine(part.markdown)}`;
    }
    if (!text.trim()) continue;
    lines.push(block(text, `${'  '.repeat(listDepth)}${ordered ? `${number}.` : '-'} ${line}${nested}`));
  }
  if (lines.length === 0) return null;
  let text = lines[0]!.text;
  let markdown = lines[0]!.markdown;
  for (let i = 1; i < lines.length; i++) {
    text += `\n${lines[i]!.text}`;
    markdown += `\n${lines[i]!.markdown}`;
  }
  return block(text, markdown, listDepth > 0);
}

/** A quote's blocks as one, each markdown line behind `> `. */
function renderQuote(quote: HTMLElement, ctx: RenderContext, listDepth: number): Block | null {
  const inner: Block[] = [];
  walkBlocks(quote, ctx, inner, listDepth);
  if (inner.length === 0) return null;
  return block(inner.map((b) => b.text).join('\n'), inner.map((b) => b.markdown.replace(/^/gm, '> ')).join('\n>\n'));
}

/**
 * The inline nodes of the runs being walked, each walk's run after the runs of the walks around it: a list made for
 * every walk was the largest garbage of the rendering (a 2 MB page walks 20,000 blocks). A walk flushes its run before
 * it walks a block inside it, so the walks inside find the list as they left it.
 */
const inlineRun: Node[] = [];

/** The run of inline nodes from `run` on gathered as one block, when it holds any text; the run is emptied. */
function flushInline(run: number, ctx: RenderContext, out: BlockOut): void {
  const inline = inlineRun;
  if (inline.length === run) return;
  let text = '';
  let markdown = '';
  for (let i = run; i < inline.length; i++) {
    text += inlineText(inline[i]!, ctx);
    markdown += inlineMarkdown(inline[i]!, ctx);
  }
  inline.length = run;
  text = collapse(text);
  markdown = collapse(markdown);
  if (text) out.push(block(text, markdown));
}

/**
 * A table used for page layout (cells holding paragraphs, lists or other tables) is read as blocks, not as a grid.
 * A walk that stops at the first such block, not a selector query (css-select matches each element against every tag).
 */
function isLayoutTable(table: HTMLElement): boolean {
  return firstDescendant(table, (el) => LAYOUT_BLOCKS.has(tagOf(el))) !== null;
}
const LAYOUT_BLOCKS = new Set(['table', 'p', 'ul', 'ol', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre']);
const ROWS = new Set(['tr']);

function renderTable(table: HTMLElement, ctx: RenderContext): Block {
  const rows = descendantsByTag(table, ROWS).map((tr) => childElements(tr).filter((c) => ['td', 'th'].includes(tagOf(c))));
  const cells = rows.filter((r) => r.length > 0);
  if (cells.length === 0) return block('', '');
  const width = Math.max(...cells.map((r) => r.length));
  const md = cells.map((r) => `| ${Array.from({ length: width }, (_, i) => (r[i] ? inlineMarkdownOf(r[i], ctx).replace(/\|/g, '\\|') : '')).join(' | ')} |`);
  md.splice(1, 0, `|${' --- |'.repeat(width)}`);
  return block(cells.map((r) => r.map((c) => collapse(inlineText(c, ctx))).join(': ')).join('\n'), md.join('\n'));
}

/** Text of a node, leaving out scripts, controls and whatever the content reader dropped. */
function inlineText(node: Node, ctx: RenderContext): string {
  if (!isElement(node)) return node.nodeType === TEXT ? textOfNode(node) : '';
  const tag = tagOf(node);
  if (tag === 'br') return ' ';
  if (leftOut(node, ctx)) return '';
  // Concatenated, not mapped and joined: no array for every element of the page.
  let text = '';
  for (let child = node.firstChild; child !== null; child = child.nextSibling) text += inlineText(child, ctx);
  return BLOCK_TAGS.has(tag) ? ` ${text} ` : text;
}

const inlineMarkdownOf = (el: HTMLElement, ctx: RenderContext) => collapse(innerMarkdown(el, ctx));

function innerMarkdown(el: HTMLElement, ctx: RenderContext): string {
  let markdown = '';
  for (let child = el.firstChild; child !== null; child = child.nextSibling) markdown += inlineMarkdown(child, ctx);
  return markdown;
}

function inlineMarkdown(node: Node, ctx: RenderContext): string {
  if (!isElement(node)) return node.nodeType === TEXT ? textOfNode(node).replace(/([*_`[\]])/g, '\\$1') : '';
  const tag = tagOf(node);
  if (tag === 'br') return ' ';
  if (leftOut(node, ctx)) return '';
  switch (tag) {
    case 'a': {
      const href = ctx.resolve(node.getAttribute('href'));
      const label = collapse(innerMarkdown(node, ctx));
      return href && label ? `[${label}](${href})` : label;
    }
    case 'strong':
    case 'b':
      return wrap('**', innerMarkdown(node, ctx));
    case 'em':
    case 'i':
      return wrap('_', innerMarkdown(node, ctx));
    case 'code': {
      const code = textOfNode(node).trim();
      return code ? `\`${code}\`` : '';
    }
    case 'img': {
      const src = ctx.resolve(node.getAttribute('src'));
      return src ? `![${node.getAttribute('alt') ?? ''}](${src})` : '';
    }
    default:
      return BLOCK_TAGS.has(tag) ? ` ${innerMarkdown(node, ctx)} ` : innerMarkdown(node, ctx);
  }
}

const wrap = (mark: string, text: string) => (text.trim() ? `${mark}${text.trim()}${mark}` : '');
