import { terms, withStopwords, words as tokens } from '../text/tokens.js';
import { conceptOf, hintOf, words, type Concept, type ValueType } from './concepts.js';

export interface FieldPlan {
  key: string;
  instruction: string;
  /** What the field name says it is about. */
  concept: Concept | undefined;
  /** What only the instruction suggests; tried after the name's own evidence. */
  hint: Concept | undefined;
  type: ValueType;
  /** Content words of the field name and instruction, for labels and sentences. */
  keywords: string[];
  /** Words of the field name alone: the strongest label evidence. */
  nameWords: string[];
  /** For availability-like booleans: what counts as true. */
  booleanOf?: 'in_stock';
}

/** Words of extraction instructions that name the task, not what to extract. */
const STOP = withStopwords(
  'page item items value values number numbers extract find get give return list listed main text field name names please first shown mentioned provided given e g eg etc de la le et'.split(' '),
);

/** Reads a field's name and instruction: what it is about and what type the answer should have. */
export function planField(key: string, instruction: string): FieldPlan {
  const concept = conceptOf(key);
  const hint = concept ? undefined : hintOf(instruction);
  const text = instruction.toLowerCase();
  const nameWords = words(key).split(' ').filter((w) => w && !STOP.has(w));
  const keywords = [...new Set([...nameWords, ...contentWords(text)])];
  const plan: FieldPlan = { key, instruction, concept, hint, type: typeOf(key, text, concept ?? hint), keywords, nameWords };
  if (plan.type === 'boolean' && (concept ?? hint)?.id === 'availability') plan.booleanOf = 'in_stock';
  return plan;
}

/** Words of three letters or more that are not stopwords, as written (lower-cased, not stemmed). */
export function contentWords(text: string): string[] {
  return tokens(text).filter((w) => w.length > 2 && !STOP.has(w));
}

/** contentWords, stemmed so "prices" meets "price": for comparing two texts word by word. */
export function contentTerms(text: string): string[] {
  return terms(text, { stopwords: STOP, minLength: 3 });
}

function typeOf(key: string, text: string, concept: Concept | undefined): ValueType {
  const name = words(key);
  const yesNo = /^(is|has|can|does|should)\b/.test(name) || /\b(whether|true or false|yes or no|yes\/no|boolean)\b|^(is|does|has|can) /.test(text);
  // A field named for the state ("availability", "stock status") answers with the state, which says more
  // than yes or no (LimitedAvailability, PreOrder); one named as a question ("in_stock", "is_available") is yes/no.
  if (yesNo && concept?.id === 'availability' && !/^(is|has|can)\b|\bin stock\b|\bavailable\b/.test(name) && !/\b(true or false|yes or no|yes\/no|boolean)\b/.test(text)) return 'string';
  if (yesNo) return 'boolean';
  if (/\b(list|array|comma.separated|all (the )?\w+s)\b/.test(text) || concept?.type === 'list') return 'list';
  if (concept) return concept.type;
  if (/\b(how many|number of|count|total|quantity|amount|percentage|percent|score|age|year)\b/.test(`${name} ${text}`)) return 'number';
  if (/\b(date|when|day)\b/.test(`${name} ${text}`)) return 'date';
  if (/\b(url|link)\b/.test(`${name} ${text}`)) return 'url';
  return 'string';
}
