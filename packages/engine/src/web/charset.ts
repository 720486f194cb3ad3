/**
 * Picks the text encoding the way browsers do: a byte-order mark wins (it cannot be there by
 * accident), then the Content-Type charset, then a <meta> declaration in the first bytes of
 * an HTML page, then UTF-8. Labels go through TextDecoder, which knows the WHATWG aliases
 * (iso-8859-1 decodes as windows-1252, shift_jis, euc-kr, gb18030...).
 */
export interface DecodedText {
  text: string;
  charset: string;
}

const META_SCAN_BYTES = 4096;

export function decodeText(bytes: Uint8Array, contentType: string, isHtml: boolean): DecodedText {
  const charset = fromBom(bytes) ?? supported(headerCharset(contentType)) ?? (isHtml ? supported(metaCharset(bytes)) : null) ?? 'utf-8';
  return { text: new TextDecoder(charset).decode(bytes), charset };
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
