/**
 * Prices as shops write them, in any locale: "1.299,00 €", "$1,299.99", "5 550 Kč", "CHF 1'250.–",
 * "Pris från 172 kr", "US$:12.99", "950 грн.". One parser for the extractor's price and currency
 * fields and for the bench's price-string set.
 */

export interface ParsedPrice {
  /** The amount as a number, or null when the text holds no price. */
  amount: number | null;
  /** The amount as a plain decimal string ("1299.5"), exact where a float would round. */
  amountText: string | null;
  /** The currency exactly as the text writes it ("руб.", "US$", "€"), or null. */
  currency: string | null;
  /** Its ISO 4217 code when the writing says which one ("$" is read as USD). */
  code: string | null;
}

/**
 * Currency writings and their ISO codes. Symbols match anywhere; letter forms only as whole words,
 * so "kr" is not read out of "Kreuz". Longer writings come first ("US$" before "$").
 */
const WRITINGS: [string, string | null][] = [
  ['US$', 'USD'], ['AU$', 'AUD'], ['A$', 'AUD'], ['CA$', 'CAD'], ['C$', 'CAD'], ['NZ$', 'NZD'], ['NT$', 'TWD'], ['HK$', 'HKD'],
  ['S$', 'SGD'], ['MX$', 'MXN'], ['BZ$', 'BZD'], ['R$', 'BRL'], ['$', 'USD'],
  ['€', 'EUR'], ['£', 'GBP'], ['₤', 'GBP'], ['¥', 'JPY'], ['円', 'JPY'], ['₹', 'INR'], ['₩', 'KRW'], ['원', 'KRW'], ['₽', 'RUB'],
  ['₫', 'VND'], ['₪', 'ILS'], ['₴', 'UAH'], ['₺', 'TRY'], ['₦', 'NGN'], ['₱', 'PHP'], ['฿', 'THB'], ['₮', 'MNT'], ['₸', 'KZT'],
  ['₼', 'AZN'], ['₾', 'GEL'], ['֏', 'AMD'], ['৳', 'BDT'], ['؋', 'AFN'], ['₡', 'CRC'], ['₲', 'PYG'], ['₵', 'GHS'], ['ƒ', null], ['₶', null], ['₣', null], ['₭', 'LAK'], ['₨', null], ['៛', 'KHR'], ['﷼', null], ['B/.', 'PAB'], ['S/.', 'PEN'],
  ['Kč', 'CZK'], ['zł', 'PLN'], ['руб.', 'RUB'], ['руб', 'RUB'], ['р.', 'RUB'], ['грн.', 'UAH'], ['грн', 'UAH'], ['лв.', 'BGN'], ['лв', 'BGN'],
  ['тг', 'KZT'], ['сом', 'KGS'], ['ден', 'MKD'], ['дин.', 'RSD'],
  ['تومان', 'IRR'], ['ریال', 'IRR'], ['ريال', 'SAR'], ['جنيه', 'EGP'], ['درهم', 'AED'], ['دينار', null], ['د.إ', 'AED'], ['ر.س', 'SAR'],
  ['euro', 'EUR'], ['euros', 'EUR'], ['dollars', 'USD'], ['Dinara', 'RSD'], ['dinar', null],
  ['lei', 'RON'], ['Lek', 'ALL'], ['kr.', null], ['kr', null], ['Ft', 'HUF'], ['TL', 'TRY'], ['Rp', 'IDR'], ['Rs.', 'INR'], ['Rs', 'INR'], ['RM', 'MYR'], ['KD', 'KWD'],
  ['Fr.', 'CHF'], ['Fr', 'CHF'], ['KM', 'BAM'], ['FBu', 'BIF'], ['Nu.', 'BTN'], ['Br', 'BYN'], ['Р', 'RUB'], ['đ', 'VND'], ['र', 'NPR'], ['Kn', 'HRK'], ['kn', 'HRK'],
  ['FCFA', 'XOF'], ['CFA', 'XOF'], ['KMF', 'KMF'], ['BD', 'BHD'], ['LD', 'LYD'], ['Fdj', 'DJF'], ['Nfk', 'ERN'], ['MK', 'MWK'], ['Rf', 'MVR'], ['UM', 'MRU'], ['Db', 'STN'], ['TSh', 'TZS'],
];

/** ISO 4217 codes a page may write next to a price. */
const ISO = new Set(
  ('USD EUR GBP JPY CNY RMB INR KRW RUB UAH BYN KZT PLN CZK HUF RON BGN HRK RSD BAM MKD ALL CHF SEK NOK DKK ISK TRY ILS AED SAR QAR KWD BHD OMR JOD EGP MAD TND ' +
    'ZAR NGN KES GHS BRL ARS CLP COP PEN MXN CAD AUD NZD SGD HKD TWD THB VND IDR MYR PHP PKR BDT LKR NPR IRR IQD GEL AMD AZN UZS MNT DEM FRF ITL ESP PTE NLG BEF ATS FIM IEP GRD')
    .split(' '),
);

const SYMBOLIC = /[^\p{L}]/u;
/** Writings that are word stems in their language ("рублей", "рубля" are roubles too). */
const INFLECTED = new Set(['руб']);
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** How a writing is bounded: a symbol alone stands anywhere; a word not after a letter, nor before one unless a stem. */
type Bounds = 'none' | 'before' | 'both';
const boundsOf = (w: string): Bounds => (SYMBOLIC.test(w[0]!) && SYMBOLIC.test(w.at(-1)!) ? 'none' : /\p{L}$/u.test(w) && !INFLECTED.has(w) ? 'both' : 'before');
const bounded = (bounds: Bounds, alternatives: string): string =>
  bounds === 'none' ? `(?:${alternatives})` : `(?<!\\p{L})(?:${alternatives})${bounds === 'both' ? '(?!\\p{L})' : ''}`;

/**
 * Every writing, in WRITINGS' order, each run of neighbours bounded alike inside one pair of bounds. A pair for every
 * writing was over two hundred Unicode letter classes under the `iu` flags, which V8 took 30 to 40 ms to compile at
 * the first match and 25 more at the first text of two-byte characters; grouped, 7 to 11 ms each. The matches are the
 * same: a group's bounds hold at one position for each of its writings, and when the bound after a writing fails the
 * engine tries the group's next writing, as it tried the next alternative (docs/benchmarks.md). Made on first use,
 * not at import: most processes that import the engine never read a price.
 */
function writingSource(): string {
  const runs: { bounds: Bounds; writings: string[] }[] = [];
  for (const [w] of WRITINGS) {
    const bounds = boundsOf(w);
    const last = runs.at(-1);
    if (last?.bounds === bounds) last.writings.push(escape(w));
    else runs.push({ bounds, writings: [escape(w)] });
  }
  return [
    // A dollar with a country's letters before it ("SGD$", "RD$", "J$", "MOP$") is one writing.
    '(?<!\\p{L})[A-Z]{1,3}\\$',
    ...runs.map(({ bounds, writings }) => bounded(bounds, writings.join('|'))),
    bounded('both', [...ISO].join('|')),
  ].join('|');
}
let writingRe: RegExp | undefined;
const writingPattern = (): RegExp => (writingRe ??= new RegExp(writingSource(), 'giu'));

const CODES = new Map(WRITINGS.map(([w, c]) => [w.toLowerCase(), c]));

/** A number with optional grouping: "1 299,00", "1.234.567", "1'250.–", "12,", ".99". */
const NUMBER_RE = /\d(?:[\d]|[.,](?=\d)|[.,]\s(?=\d{2}(?!\d))|[\s\u00a0\u202f'’](?=\d{3}(?!\d))|[.,](?=[-–—]))*(?:[.,][-–—])?|[.,]\d{1,2}(?!\d)/g;

/** The currency a text writes, with where it stands. */
function findCurrency(text: string): { raw: string; index: number } | null {
  const writing = writingPattern();
  writing.lastIndex = 0;
  const found: { raw: string; index: number }[] = [];
  for (const m of text.matchAll(writing)) {
    const raw = m[0];
    // A lone "Р"/"р." or "Br" is a currency only beside a number, not a letter of a word.
    found.push({ raw, index: m.index });
  }
  if (found.length === 0) return null;
  // "NZD $100.70", "$1,190.00 AUD": the code says which dollar.
  const coded = found.find(({ raw }) => ISO.has(raw.toUpperCase()) && raw === raw.toUpperCase());
  if (coded && found.some(({ raw }) => raw === '$')) return coded;
  // Beside a digit wins over a word elsewhere in the text ("Kč" in "5 550 Kč, free delivery in CZ").
  const nextToDigit = found.find(({ raw, index }) => /\d[\s\u00a0:]*$/.test(text.slice(Math.max(0, index - 3), index)) || /^[\s\u00a0:]*[\d.,]/.test(text.slice(index + raw.length, index + raw.length + 3)));
  return nextToDigit ?? found[0]!;
}

/** ISO code of a currency writing. */
export function currencyCode(raw: string): string | null {
  const upper = raw.toUpperCase();
  if (ISO.has(upper)) return upper === 'RMB' ? 'CNY' : upper;
  const known = CODES.get(raw.toLowerCase());
  return known === undefined ? null : known;
}

/**
 * Reads a number the way people write it. The decimal mark is the last "." or "," that is
 * followed by anything but exactly three digits; with both marks present the later one is the
 * decimal mark; a mark that repeats groups thousands; "12,-" and "12.–" are whole amounts.
 */
export function parseAmount(numberText: string): string | null {
  let s = numberText.replace(/[\s\u00a0\u202f'’]/g, '').replace(/[.,][-–—]$/, '');
  if (!/\d/.test(s)) return null;
  if (/^[.,]\d/.test(s)) s = `0${s}`;
  const lastDot = s.lastIndexOf('.');
  const lastComma = s.lastIndexOf(',');
  const mark = Math.max(lastDot, lastComma);
  if (mark >= 0) {
    const markChar = s[mark]!;
    const decimals = s.length - mark - 1;
    const bothMarks = lastDot >= 0 && lastComma >= 0;
    const repeats = s.split(markChar).length - 1 > 1;
    const isDecimal = decimals > 0 && (bothMarks || (!repeats && decimals !== 3));
    const intPart = s.slice(0, mark).replace(/[.,]/g, '');
    s = isDecimal ? `${intPart}.${s.slice(mark + 1)}` : s.replace(/[.,]/g, '');
  }
  s = s.replace(/^0+(?=\d)/, '');
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
  return /^\d+(\.\d+)?$/.test(s) ? s : null;
}

/**
 * The price a text states: the amount nearest its currency (the first amount when it names none,
 * so "From $14.97" and "$10 - $20" read as their first price) and the currency as written; the
 * hint is text found near the price on the page, used when the price text itself names no currency.
 */
export function parsePrice(text: string, currencyHint?: string | null): ParsedPrice {
  const currency = findCurrency(text) ?? (currencyHint ? findCurrency(currencyHint) : null);
  const numbers = [...text.matchAll(NUMBER_RE)].filter((m) => /\d/.test(m[0]));
  let chosen = numbers[0];
  // "From 26 to 50 €", "10 - 20 $": a range is read as its first price, wherever the sign stands.
  const range = /\d\s*(?:-|–|—|to|bis|à|a|до)\s*\D{0,3}\d/i.test(text);
  if (currency && numbers.length > 1 && findCurrency(text) && !range) {
    // The number touching the currency sign, before or after it.
    const distance = (m: RegExpMatchArray) => {
      const start = m.index!;
      const end = start + m[0].length;
      return start >= currency.index + currency.raw.length ? start - (currency.index + currency.raw.length) : currency.index >= end ? currency.index - end : 0;
    };
    chosen = numbers.reduce((best, m) => (distance(m) < distance(best) ? m : best), numbers[0]!);
  }
  const amountText = chosen ? parseAmount(chosen[0]) : null;
  return {
    amount: amountText === null ? null : Number(amountText),
    amountText,
    currency: currency?.raw ?? null,
    code: currency ? currencyCode(currency.raw) : null,
  };
}
