/**
 * Product identifiers (SKU, MPN, GTIN) as pages write them: "Item # 101095", "sku:CAE5D4",
 * "Art.-Nr. KW-AR6", a list of productIDs, or a number in the URL.
 */

const LABEL = /^(?:sku|mpn|gtin\d*|upc|ean\d*|isbn\d*|item|model|part|art(?:ikel)?|article|product|style|ref(?:erence)?|réf|référence|code|id)\b\.?[\s-]*(?:#|no\.?|nr\.?|number|nummer|code|id)?\s*[:#.]?\s*/i;
const SHAPE = /^[A-Za-z0-9][A-Za-z0-9._\/-]{1,39}$/;

/** One identifier from a raw value, its label taken off; null when it does not look like a code. */
export function identifierOf(raw: unknown): string | null {
  if (typeof raw === 'number') return Number.isInteger(raw) ? String(raw) : null;
  if (Array.isArray(raw)) {
    const values = raw.map(String);
    // Several productIDs ("sku:CAE5D4", "mpn:1483C002"): the one labelled sku, else the first that reads.
    const labelled = values.find((v) => /^sku\s*:/i.test(v.trim()));
    for (const v of labelled ? [labelled, ...values] : values) {
      const id = identifierOf(v);
      if (id) return id;
    }
    return null;
  }
  if (typeof raw !== 'string') return null;
  let s = raw.replace(/\s+/g, ' ').trim();
  // "B&H # CAE5D4", "Item # 101095": the code after the hash.
  const hashed = /#\s*([A-Za-z0-9][\w.\/-]*)$/.exec(s);
  if (hashed) s = hashed[1]!;
  for (let i = 0; i < 2 && LABEL.test(s) && s.replace(LABEL, '').length > 0; i++) s = s.replace(LABEL, '').trim();
  // Codes carry a digit or are capitals joined by a separator ("BFP-BLU"); "VIEW ALL" and words are not codes.
  return SHAPE.test(s) && (/\d/.test(s) || /^[A-Z]+[-_.][A-Z0-9][A-Z0-9._-]*$/.test(s)) ? s : null;
}

const URL_PATTERNS = [
  /[?&](?:sku|pid|product_?id|item_?id|itemno|prodid|productcode)=([A-Za-z0-9._-]{3,40})/i,
  /(?:prodid|productid|pid|sku|item|itm)[-_/=]([A-Za-z0-9]{4,30})(?=[/?#.]|$)/i,
  /\/dp\/([A-Z0-9]{10})(?=[/?]|$)/,
  /[-_/](\d{5,15})(?:\.html?|\.aspx?)?\/?(?:[?#]|$)/,
];

/** A product code the URL carries: "?sku=…", "-prodid-937363", "/dp/B01KLOA1PI", a trailing number. */
export function identifierFromUrl(url: string): string | null {
  for (const re of URL_PATTERNS) {
    const m = re.exec(url);
    if (m && /\d/.test(m[1]!)) return m[1]!;
  }
  return null;
}
