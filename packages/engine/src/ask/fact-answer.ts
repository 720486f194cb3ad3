import { terms } from '../text/tokens.js';
import type { AskedAttributes } from './attributes.js';
import type { PageFacts } from './facts.js';

/** A source's facts and its marker number (its position among the relevant sources + 1). */
export interface SourceFacts {
  marker: number;
  facts: PageFacts;
}

/**
 * The attribute answer: one sentence per source stating the asked facts, ending with its marker
 * ("Ortho … 117 costs 559.52 EUR and is in stock [1]."). For "which … are in stock" only what is
 * in stock is listed and the rest are counted with their markers. Null when no source about the
 * subject states an asked fact, so the extractive answer is used instead.
 */
export function factAnswer(asked: AskedAttributes, found: SourceFacts[]): string | null {
  const about = mergeSame(found.filter((f) => mentionsSubject(f.facts.name, asked.subject)));
  if (about.length === 0) return null;
  if (!asked.inStockOnly) return about.map((f) => sentence(f, asked)).join(' ');
  const known = about.filter((f) => f.facts.values.availability !== undefined);
  const inStock = known.filter((f) => f.facts.values.availability === 'InStock');
  const others = known.filter((f) => f.facts.values.availability !== 'InStock');
  const lines = inStock.map((f) => sentence(f, asked));
  if (others.length > 0) {
    const markers = others.flatMap((f) => f.markers).map((n) => `[${n}]`).join('');
    const count = others.length === 1 ? '1 other is' : `${others.length} others are`;
    lines.push(inStock.length === 0 ? `None of them is in stock ${markers}.` : `${count} not in stock ${markers}.`);
  }
  return lines.length > 0 ? lines.join(' ') : null;
}

interface Stated {
  markers: number[];
  facts: PageFacts;
}

/** Pages stating the same facts about the same thing (mirrors, copies at two addresses) make one sentence citing all of them. */
function mergeSame(found: SourceFacts[]): Stated[] {
  const byKey = new Map<string, Stated>();
  for (const f of found) {
    const key = JSON.stringify([f.facts.name.toLowerCase(), Object.entries(f.facts.values).sort(([a], [b]) => a.localeCompare(b))]);
    const same = byKey.get(key);
    if (same) same.markers.push(f.marker);
    else byKey.set(key, { markers: [f.marker], facts: f.facts });
  }
  return [...byKey.values()];
}

/** "Name costs 559.52 EUR, is rated 4.4 of 5 from 170 reviews and is in stock [1]." */
function sentence({ markers, facts }: Stated, asked: AskedAttributes): string {
  const v = facts.values;
  const parts: string[] = [];
  for (const a of asked.attributes) {
    if (a === 'price' && typeof v.price === 'number') parts.push(`costs ${money(v.price)}${v.currency ? ` ${v.currency}` : ''}`);
    if (a === 'availability' && v.availability !== undefined) parts.push(`is ${availabilityText(String(v.availability))}`);
    if (a === 'rating' && v.rating !== undefined) parts.push(`is rated ${v.rating} of 5${v.review_count !== undefined ? ` from ${v.review_count} reviews` : ''}`);
    if (a === 'brand' && v.brand !== undefined) parts.push(`is made by ${v.brand}`);
    if (a === 'date_published' && v.date_published !== undefined) parts.push(`was published on ${String(v.date_published).slice(0, 10)}`);
    if (a === 'author' && v.author !== undefined) parts.push(`was written by ${v.author}`);
  }
  const said = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : (parts[0] ?? 'has no stated value for what was asked');
  return `${facts.name.replace(/[.!?]+$/, '')} ${said} ${markers.map((n) => `[${n}]`).join('')}.`;
}

/** A listed name counts when it has at least half of the subject's words (all of one or two). */
function mentionsSubject(name: string, subject: string[]): boolean {
  if (subject.length === 0) return true;
  const have = new Set(terms(name));
  const shared = subject.filter((t) => have.has(t)).length;
  return shared >= Math.min(subject.length, Math.max(1, Math.ceil(subject.length / 2)));
}

const money = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));

const AVAILABILITY: Record<string, string> = {
  InStock: 'in stock',
  OutOfStock: 'out of stock',
  SoldOut: 'sold out',
  PreOrder: 'available for pre-order',
  BackOrder: 'on backorder',
  Discontinued: 'discontinued',
  LimitedAvailability: 'in limited supply',
};

function availabilityText(state: string): string {
  return AVAILABILITY[state] ?? state.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}
