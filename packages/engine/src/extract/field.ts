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

const STOP = new Set(
  'a an the of and or to in on for from with by at as is are be was were it its this that these those what which who whom whose how many much when where why there their them they page if any all each every item items value values number numbers extract find get give return list listed main the text field name names please only one two first its shown mentioned provided given e g eg etc e.g. i.e. about also de la le et'.split(' '),
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

export function contentWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 2 && !STOP.has(w));
}

function typeOf(key: string, text: string, concept: Concept | undefined): ValueType {
  const name = words(key);
  if (/^(is|has|can|does|should)\b/.test(name) || /\b(whether|true or false|yes or no|yes\/no|boolean)\b|^(is|does|has|can) /.test(text)) return 'boolean';
  if (/\b(list|array|comma.separated|all (the )?\w+s)\b/.test(text) || concept?.type === 'list') return 'list';
  if (concept) return concept.type;
  if (/\b(how many|number of|count|total|quantity|amount|percentage|percent|score|age|year)\b/.test(`${name} ${text}`)) return 'number';
  if (/\b(date|when|day)\b/.test(`${name} ${text}`)) return 'date';
  if (/\b(url|link)\b/.test(`${name} ${text}`)) return 'url';
  return 'string';
}
