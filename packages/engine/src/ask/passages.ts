import { sentences } from '../text/tokens.js';

export interface Passage {
  /** Position of the page among the pages read (0-based). */
  doc: number;
  text: string;
}

/** Long enough to carry a claim with its context, short enough to quote. */
const MAX_CHARS = 360;
const MIN_CHARS = 40;

/**
 * Splits a page's main text into quotable passages: runs of whole sentences within one
 * paragraph, up to MAX_CHARS, so a quoted passage never starts or ends mid-sentence. A paragraph
 * too short to quote on its own (a heading, a one-line command) leads into the next one, so what
 * it says is not lost: "Example" + "orbit install --config value" is one passage.
 */
export function splitPassages(doc: number, text: string): Passage[] {
  const out: Passage[] = [];
  let lead = '';
  for (const block of text.split(/\n\s*\n/)) {
    const paragraph = `${lead} ${block.replace(/\s+/g, ' ')}`.trim();
    if (paragraph.length < MIN_CHARS) {
      lead = paragraph;
      continue;
    }
    lead = '';
    let current = '';
    for (const sentence of sentences(paragraph)) {
      if (current && current.length + sentence.length + 1 > MAX_CHARS) {
        out.push({ doc, text: current });
        current = '';
      }
      current = current ? `${current} ${sentence}` : sentence;
    }
    if (current) out.push({ doc, text: current.length > MAX_CHARS * 2 ? `${current.slice(0, MAX_CHARS * 2)}…` : current });
  }
  return out.filter((p) => p.text.length >= MIN_CHARS);
}
