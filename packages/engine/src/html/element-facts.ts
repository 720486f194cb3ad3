import type { HTMLElement } from './tree.js';

/** What main-content counts of an element and its descendants: visible characters, those inside links, and so on. */
export interface Stat {
  chars: number;
  linkChars: number;
  commas: number;
  paragraphs: number;
  images: number;
  items: number;
  controls: number;
}

export const CHARS = 0;
export const LINK_CHARS = 1;
export const COMMAS = 2;
export const PARAGRAPHS = 3;
export const IMAGES = 4;
export const ITEMS = 5;
export const CONTROLS = 6;
/** The counts a Stat holds; the next slot holds the flags. */
const COUNTS = 7;
const FLAGS = 7;
const STRIDE = 8;
/** Elements a reading has room for at first when it is not told how many the page has: a typical page has a thousand or two. */
const FIRST_ROOM = 2_048;

const MEASURED = 1;
const SCORED = 2;
const SKIPPED = 4;
const BLOCKY = 8;
const JUDGED = 16;
const DROPPED = 32;
const WEIGHED = 64;
/** A weight is kept in the flags' slot above the flags, offset to be positive: a whole number from -WEIGHT_OFFSET up. */
const WEIGHT_SHIFT = 8;
const WEIGHT_OFFSET = 1 << 10;

/**
 * One reading's facts about the elements of a page (see main-content.ts): counts, score, verdicts, in typed arrays by
 * element index. A reading keeps facts about most elements of the page until the page is rendered; as objects, a
 * 2 MB page's (40,000 elements) were megabytes that every young collection copied and that outlived it, each time
 * into memory fresh from the system, whose first touch costs more here than the counting that fills it (see
 * docs/benchmarks.md). Numbers in typed arrays are neither copied nor scanned by the collector, and take under half the
 * room.
 */
export class ElementFacts {
  /**
   * Room for the elements written so far, doubled past the largest index written: a typical page's fits the first.
   * The initialisers' empty arrays are the fields' first write and the constructor's `grow` their second. V8 takes a
   * field written once for a constant, and code optimised on that trust is thrown away the first time the field
   * changes: a reader's first page of more than FIRST_ROOM elements threw away the whole content reader at once (every
   * function that reads these arrays, and every one that inlines them), and it was compiled again (docs/benchmarks.md).
   * Written twice by the first reading's constructor, the fields are plain ones before any code is optimised.
   */
  private slots = new Int32Array(0);
  private scores = new Float64Array(0);
  /** Scored elements in the order first scored (the order ties are broken in). */
  private readonly order: HTMLElement[] = [];

  /**
   * `elements`: room for this many (one past the page's largest element index), so a large page's arrays are made once
   * at their size, not doubled up to it from FIRST_ROOM with a copy at each step, and a small page's are no larger than
   * it needs: every array here is zeroed memory, and a reading of NLTK's pages spent 1.7 % of its time making them.
   */
  constructor(elements = FIRST_ROOM) {
    this.grow(elements);
  }

  /** Where the element's slots begin, or -1 for one past the room (nothing is known of it). */
  private at(el: HTMLElement): number {
    return el.index < this.scores.length ? el.index * STRIDE : -1;
  }

  /** Where the element's slots begin, with room made for them. */
  private room(el: HTMLElement): number {
    if (el.index >= this.scores.length) this.grow(Math.max(el.index + 1, this.scores.length * 2));
    return el.index * STRIDE;
  }

  private grow(size: number): void {
    const slots = new Int32Array(size * STRIDE);
    slots.set(this.slots);
    const scores = new Float64Array(size);
    scores.set(this.scores);
    this.slots = slots;
    this.scores = scores;
  }

  count(el: HTMLElement, field: number): number {
    const at = this.at(el);
    return at < 0 ? 0 : this.slots[at + field]!;
  }

  addCount(el: HTMLElement, field: number, value: number): void {
    // Room first: `this.slots[this.room(el) + …]` would read the array before room() replaced it.
    const at = this.room(el);
    this.slots[at + field]! += value;
  }

  /** Adds a child's counts to its parent's. */
  addCounts(into: HTMLElement, from: HTMLElement): void {
    const to = this.room(into);
    const at = this.at(from);
    if (at < 0) return;
    for (let field = 0; field < COUNTS; field++) this.slots[to + field]! += this.slots[at + field]!;
  }

  /** The counts of a measured element, undefined for one left out or not reached. */
  stat(el: HTMLElement): Stat | undefined {
    if (!this.is(el, MEASURED)) return undefined;
    const at = this.at(el);
    const s = this.slots;
    return { chars: s[at + CHARS]!, linkChars: s[at + LINK_CHARS]!, commas: s[at + COMMAS]!, paragraphs: s[at + PARAGRAPHS]!, images: s[at + IMAGES]!, items: s[at + ITEMS]!, controls: s[at + CONTROLS]! };
  }

  measured(el: HTMLElement): boolean {
    return this.is(el, MEASURED);
  }

  markMeasured(el: HTMLElement): void {
    this.mark(el, MEASURED);
  }

  skipped(el: HTMLElement): boolean {
    return this.is(el, SKIPPED);
  }

  markSkipped(el: HTMLElement): void {
    this.mark(el, SKIPPED);
  }

  /** Holds block children (an inline tag wrapping paragraphs counts as a block). */
  blocky(el: HTMLElement): boolean {
    return this.is(el, BLOCKY);
  }

  markBlocky(el: HTMLElement): void {
    this.mark(el, BLOCKY);
  }

  /** The verdict given on the element, undefined before one is. */
  verdict(el: HTMLElement): boolean | undefined {
    return this.is(el, JUDGED) ? this.is(el, DROPPED) : undefined;
  }

  setVerdict(el: HTMLElement, dropped: boolean): void {
    this.mark(el, dropped ? JUDGED | DROPPED : JUDGED);
  }

  /** The weight of the element's class and id words (main-content's `classWeight`), undefined before it is set. */
  weight(el: HTMLElement): number | undefined {
    if (!this.is(el, WEIGHED)) return undefined;
    return (this.slots[this.at(el) + FLAGS]! >> WEIGHT_SHIFT) - WEIGHT_OFFSET;
  }

  /** Keeps a whole number from -1,024 to 8,387,583 (what the slot holds above the flags, less the offset). */
  setWeight(el: HTMLElement, weight: number): void {
    const at = this.room(el);
    this.slots[at + FLAGS] = (this.slots[at + FLAGS]! & ((1 << WEIGHT_SHIFT) - 1)) | WEIGHED | ((weight + WEIGHT_OFFSET) << WEIGHT_SHIFT);
  }

  score(el: HTMLElement): number | undefined {
    return this.is(el, SCORED) ? this.scores[el.index] : undefined;
  }

  setScore(el: HTMLElement, score: number): void {
    if (!this.is(el, SCORED)) {
      this.mark(el, SCORED);
      this.order.push(el);
    }
    // Scored before, or marked just now: either way it has room.
    this.scores[el.index] = score;
  }

  /** The scored elements, in the order first scored. */
  scored(): readonly HTMLElement[] {
    return this.order;
  }

  private is(el: HTMLElement, flag: number): boolean {
    const at = this.at(el);
    return at >= 0 && (this.slots[at + FLAGS]! & flag) !== 0;
  }

  private mark(el: HTMLElement, flag: number): void {
    const at = this.room(el);
    this.slots[at + FLAGS]! |= flag;
  }
}
