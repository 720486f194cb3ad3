import { isUtf8 } from 'node:buffer';

/**
 * Picks the text encoding the way browsers do: a byte-order mark wins (it cannot be there by
 * accident), then the Content-Type charset, then a <meta> declaration in the first bytes of
 * an HTML page, then UTF-8. Labels go through TextDecoder, which knows the WHATWG aliases
 * (iso-8859-1 decodes as windows-1252, shift_jis, euc-kr, gb18030...).
 * Declarations can be wrong, so the bytes get a say when they contradict one: bytes that are valid
 * UTF-8 with multi-byte characters are UTF-8 whatever was declared (that is never an accident),
 * and "UTF-8" whose bytes mostly fail to decode is windows-1252, the usual culprit.
 */
export interface DecodedText {
  text: string;
  charset: string;
}

const META_SCAN_BYTES = 4096;

export function decodeText(bytes: Uint8Array, contentType: string, isHtml: boolean): DecodedText {
  const bom = fromBom(bytes);
  if (bom) return { text: decode(bom, bytes), charset: bom };
  const declared = supported(headerCharset(contentType)) ?? (isHtml ? supported(metaCharset(bytes)) : null) ?? 'utf-8';
  if (declared !== 'utf-8' && !declared.startsWith('utf-16') && hasHighBytes(bytes) && isUtf8(bytes)) return { text: decode('utf-8', bytes), charset: 'utf-8' };
  const text = decode(declared, bytes);
  if (declared === 'utf-8' && text.includes('\uFFFD') && mostlyUndecodable(text)) return { text: decode('windows-1252', bytes), charset: 'windows-1252' };
  return { text, charset: declared };
}

// windows-1252's printable 0x80-0x9F (curly quotes, dashes, euro sign); some Node builds decode that range as Latin-1 controls.
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

function decode(charset: string, bytes: Uint8Array): string {
  const text = new TextDecoder(charset).decode(bytes);
  if (charset !== 'windows-1252') return text;
  return text.replace(/[\u0080-\u009f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]!);
}

function hasHighBytes(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! >= 0x80) return true;
  return false;
}

/** More replacement characters than well-decoded non-ASCII ones: the bytes were not UTF-8. */
function mostlyUndecodable(text: string): boolean {
  let bad = 0;
  let good = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0xfffd) bad++;
    else if (c >= 0x80) good++;
  }
  return bad > good;
}

function fromBom(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return null;
}

export function headerCharset(contentType: string): string | null {
  return /charset\s*=\s*["']?([^"';\s]+)/i.exec(contentType)?.[1] ?? null;
}

function metaCharset(bytes: Uint8Array): string | null {
  // Latin-1 maps every byte to one char, so ASCII markup can be searched before the encoding is known.
  const head = Buffer.from(bytes.subarray(0, META_SCAN_BYTES)).toString('latin1');
  return /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)?.[1] ?? null;
}

/** The canonical name of a label TextDecoder understands, or null. */
function supported(label: string | null): string | null {
  if (!label) return null;
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return null;
  }
}
