import type { ValueType } from './concepts.js';

export type FieldValue = string | number | boolean | string[] | null;

const CURRENCY_SYMBOLS: [RegExp, string][] = [
  [/US\$|USD/, 'USD'], [/C\$|CAD/, 'CAD'], [/A\$|AUD/, 'AUD'], [/R\$|BRL/, 'BRL'], [/€|EUR/, 'EUR'], [/£|GBP/, 'GBP'],
  [/¥|JPY/, 'JPY'], [/₹|INR/, 'INR'], [/₩|KRW/, 'KRW'], [/₽|руб|RUB/, 'RUB'], [/zł|PLN/, 'PLN'], [/Kč|CZK/, 'CZK'],
  [/CHF/, 'CHF'], [/SEK/, 'SEK'], [/NOK/, 'NOK'], [/DKK/, 'DKK'], [/Ft|HUF/, 'HUF'], [/\$/, 'USD'],
];

/** The ISO 4217 code a price text implies ("€12" → EUR), if any. */
export function currencyOf(text: string): string | null {
  const trimmed = text.trim();
  if (/^[A-Z]{3}$/.test(trimmed)) return trimmed;
  return CURRENCY_SYMBOLS.find(([re]) => re.test(trimmed))?.[1] ?? null;
}

/**
 * A number written the way people write it: "1.299,00 €", "$1,299.99", "1 299,50", "4.5 out of 5".
 * The last separator followed by one or two digits is the decimal mark.
 */
export function parseNumber(text: string): number | null {
  const match = /-?\d[\d.,\s\u00a0\u202f']*/.exec(text);
  if (!match) return null;
  let digits = match[0].replace(/[\s\u00a0\u202f']+$/g, '').replace(/[\s\u00a0\u202f']/g, '');
  const lastDot = digits.lastIndexOf('.');
  const lastComma = digits.lastIndexOf(',');
  const mark = Math.max(lastDot, lastComma);
  if (mark >= 0) {
    const decimals = digits.length - mark - 1;
    const other = digits[mark] === '.' ? ',' : '.';
    const sameMarkCount = digits.split(digits[mark]!).length - 1;
    // "1.299" or "1,299" with three digits after one mark is a thousands group, not decimals.
    const isDecimal = decimals > 0 && (decimals !== 3 || digits.includes(other)) && !(sameMarkCount > 1 && !digits.includes(other));
    const intPart = digits.slice(0, mark).replace(/[.,]/g, '');
    digits = isDecimal ? `${intPart}.${digits.slice(mark + 1)}` : digits.replace(/[.,]/g, '');
  }
  const value = Number(digits);
  return Number.isFinite(value) ? value : null;
}

const MONTHS = 'jan feb mar apr may jun jul aug sep oct nov dec'.split(' ');
const MONTH_NAMES: Record<string, number> = Object.fromEntries(
  [
    ...MONTHS.map((m, i) => [m, i] as const),
    ...['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'].map((m, i) => [m, i] as const),
    ...['januar', 'februar', 'märz', 'april', 'mai', 'juni', 'juli', 'august', 'september', 'oktober', 'november', 'dezember'].map((m, i) => [m, i] as const),
    ...['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'].map((m, i) => [m, i] as const),
    ['sept', 8],
  ],
);

const pad = (n: number) => String(n).padStart(2, '0');
const ymd = (y: number, m: number, d: number) =>
  m >= 0 && m < 12 && d >= 1 && d <= 31 && y > 1000 ? `${y}-${pad(m + 1)}-${pad(d)}` : null;

/** A date as ISO 8601: the full timestamp when the source had a time, else YYYY-MM-DD. */
export function parseDate(text: string): string | null {
  const s = text.trim();
  const iso = /(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)\s*(Z|[+-]\d{2}:?\d{2})?)?/.exec(s);
  if (iso) {
    if (iso[4]) {
      const t = Date.parse(`${iso[1]}-${iso[2]}-${iso[3]}T${iso[4]}${iso[5] ?? 'Z'}`);
      if (Number.isFinite(t)) return new Date(t).toISOString();
    }
    return ymd(Number(iso[1]), Number(iso[2]) - 1, Number(iso[3]));
  }
  const lower = s.toLowerCase();
  const monthFirst = /\b([a-zäéû]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b/.exec(lower);
  if (monthFirst && MONTH_NAMES[monthFirst[1]!] !== undefined) return ymd(Number(monthFirst[3]), MONTH_NAMES[monthFirst[1]!]!, Number(monthFirst[2]));
  const dayFirst = /\b(\d{1,2})(?:st|nd|rd|th)?\.?\s+(?:of\s+)?([a-zäéû]{3,9})\.?,?\s+(\d{4})\b/.exec(lower);
  if (dayFirst && MONTH_NAMES[dayFirst[2]!] !== undefined) return ymd(Number(dayFirst[3]), MONTH_NAMES[dayFirst[2]!]!, Number(dayFirst[1]));
  const numeric = /\b(\d{1,2})([./-])(\d{1,2})\2(\d{4})\b/.exec(s);
  if (numeric) {
    const [a, sep, b, y] = [Number(numeric[1]), numeric[2], Number(numeric[3]), Number(numeric[4])];
    // Dots are European (day first); slashes are ambiguous, so a day above 12 decides, else US order.
    const dayFirstOrder = sep === '.' || a > 12;
    return dayFirstOrder ? ymd(y, b - 1, a) : ymd(y, a - 1, b);
  }
  return null;
}

const TRUE = /^(true|yes|y|1|in ?stock|instock|available|available now|limitedavailability|instoreonly|onlineonly|on sale|included|free)$/i;
const FALSE = /^(false|no|n|0|out ?of ?stock|outofstock|sold ?out|soldout|discontinued|unavailable|not available|none)$/i;

export function parseBoolean(text: string): boolean | null {
  const s = schemaEnum(text).trim();
  if (TRUE.test(s)) return true;
  if (FALSE.test(s)) return false;
  if (/\b(out of stock|sold out|unavailable|not available)\b/i.test(s)) return false;
  if (/\b(in stock|available|yes)\b/i.test(s)) return true;
  return null;
}

/** `https://schema.org/InStock` → `InStock`. */
const schemaEnum = (text: string) => text.replace(/^https?:\/\/schema\.org\//i, '');

// Negative forms first: "nicht lieferbar" and "not in stock" contain the positive words.
const AVAILABILITY: [RegExp, string][] = [
  [/out ?of ?stock|sold ?out|unavailable|\bnot (in stock|available)\b|ausverkauft|nicht (lieferbar|verfügbar|vorrätig|auf lager)|épuisé|rupture de stock|agotado|sin stock|esaurito|non disponibile|uitverkocht|niet (op voorraad|leverbaar)|niedostępny|brak w magazynie|slutsåld|udsolgt|utsolgt|нет в наличии/i, 'OutOfStock'],
  [/^instock$|^in ?stock$|available now|^available$|\bin stock\b|\bvorrätig\b|\bauf lager\b|\ben stock\b|lieferbar|^disponible$|en existencia|^disponibile$|op voorraad|na stanie|(i|på) lager|в наличии/i, 'InStock'],
  [/pre-?order/i, 'PreOrder'],
  [/back-?order/i, 'BackOrder'],
  [/limited/i, 'LimitedAvailability'],
  [/discontinued/i, 'Discontinued'],
];

/** schema.org's ItemAvailability name for what a page says, or null when it says none of them. */
export function normalizeAvailability(text: string): string | null {
  const s = schemaEnum(text).trim();
  return AVAILABILITY.find(([re]) => re.test(s))?.[1] ?? null;
}

function toList(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap((v) => (typeof v === 'string' || typeof v === 'number' ? [String(v).trim()] : [])).filter(Boolean);
  if (typeof value !== 'string') return [];
  return value.split(/\s*[,;|\n]\s*/).map((v) => v.trim()).filter(Boolean);
}

/** Coerces a raw value to the field's type; null when it cannot be read as that type. */
export function coerce(raw: unknown, type: ValueType): FieldValue {
  if (raw === null || raw === undefined) return null;
  if (type === 'list') {
    const list = toList(raw);
    return list.length > 0 ? list : null;
  }
  const text = Array.isArray(raw) ? raw.map(String).join(', ') : String(raw).replace(/\s+/g, ' ').trim();
  if (!text) return null;
  switch (type) {
    case 'number':
      return typeof raw === 'number' ? raw : parseNumber(text);
    case 'date':
      return parseDate(text);
    case 'boolean':
      return typeof raw === 'boolean' ? raw : parseBoolean(text);
    case 'url':
      return /^https?:\/\//i.test(text) ? text : null;
    default:
      return text.length > 2_000 ? `${text.slice(0, 2_000)}…` : text;
  }
}
