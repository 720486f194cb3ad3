import type { FastifyInstance } from 'fastify';
import { errors } from '@wvr/engine';

/**
 * Fastify's JSON parser refuses `__proto__` keys and `constructor.prototype` (prototype poisoning)
 * but reports them as FST_ERR_CTP_INVALID_JSON_BODY, the same error as malformed JSON: it catches
 * whatever secure-json-parse throws. This keeps its parser and tells the two apart by re-reading a
 * refused body with plain JSON.parse, which only succeeds when the JSON itself was well formed.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const secureParse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  // Fastify reads text/plain bodies by default; every body here is JSON, so text answers 415.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const text = decodeStrictly(body as Buffer);
    if (text === null) return done(invalidUtf8(), undefined);
    secureParse(request, text, (error, value) => {
      if (error && isWellFormedJson(text)) done(forbiddenKey(), undefined);
      else done(error, value);
    });
  });
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Lenient decoding would turn invalid UTF-8 (such as a lone surrogate encoded as bytes, ED A0 80)
 * into U+FFFD before the engine's string_invalid_unicode rule could see it, silently storing
 * something the caller never sent; strict decoding lets it be refused instead.
 */
function decodeStrictly(bytes: Buffer): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

const invalidUtf8 = () =>
  errors.validation('string_invalid_unicode', 'The body is not valid UTF-8 (for example, a lone UTF-16 surrogate encoded as bytes).', {
    suggestions: ['Send the body as UTF-8; escape characters outside it as paired \\uXXXX surrogates.'],
  });

function isWellFormedJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const forbiddenKey = () =>
  errors.validation(
    'forbidden_key',
    'The body has a "__proto__" key, or a "constructor" object with a "prototype" key; these are refused to prevent prototype poisoning.',
    { suggestions: ['Rename or remove the "__proto__" / "constructor.prototype" key.'] },
  );
