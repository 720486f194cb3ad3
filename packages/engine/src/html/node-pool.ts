import { HTMLElement, TextNode } from './tree.js';

/**
 * A tree's nodes kept from one reading to the next, for a reader whose trees die with their reading: a crawl's reader
 * thread, which hands on what it read and never a tree. A large page's tree is tens of thousands of objects made at the
 * start of its reading and alive to its end; the young collection that falls inside most large readings copied all of
 * them, and then the kernel handed the heap fresh pages for the next copies. Nodes taken from here were made by an
 * earlier reading and live in the old generation, where no young collection copies them (docs/benchmarks.md).
 *
 * A tree built from the pool is valid until the next `release`: the caller releases once the reading is done, and no
 * node may be held past that (`parseHtml`'s tree handle is not given for such a reading).
 */
export class NodePool {
  private readonly elements: HTMLElement[] = [];
  private readonly texts: TextNode[] = [];
  private usedElements = 0;
  private usedTexts = 0;

  element(rawTagName: string | null, rawAttrs: string, index: number): HTMLElement {
    if (this.usedElements < this.elements.length) return this.elements[this.usedElements++]!.reuse(rawTagName, rawAttrs, index);
    const el = new HTMLElement(rawTagName, rawAttrs, index);
    this.elements.push(el);
    this.usedElements++;
    return el;
  }

  text(rawText: string): TextNode {
    if (this.usedTexts < this.texts.length) return this.texts[this.usedTexts++]!.reuse(rawText);
    const node = new TextNode(rawText);
    this.texts.push(node);
    this.usedTexts++;
    return node;
  }

  /**
   * The last tree's nodes free for the next: their strings let go, so that the pool holds no part of the last page
   * (a node's text is a slice that keeps the whole page's HTML alive), and no more than `keep` of each kind kept, so a
   * freak page's tree is not held for the reader's life.
   */
  release(keep = NodePool.KEEP): void {
    for (let i = 0; i < this.usedElements; i++) this.elements[i]!.reuse(null, '', 0);
    for (let i = 0; i < this.usedTexts; i++) this.texts[i]!.reuse('');
    if (this.elements.length > keep) this.elements.length = keep;
    if (this.texts.length > keep) this.texts.length = keep;
    this.usedElements = this.usedTexts = 0;
  }

  /** Of each kind: about a 2 MB documentation page's tree (40,000 elements, 26,000 texts), some 10 MB of heap at most. */
  static readonly KEEP = 65_536;
}
