// The query string as application/x-www-form-urlencoded text: `&`-separated `key=value` pairs,
// `+` a space, percent-encoded UTF-8. Stricter than the WHATWG parser, which turns what it cannot
// decode into U+FFFD: here that is an error, as is a raw character that must be encoded.
import { Failure, quoteText } from '../../../core/errors/failure.ts';

const PERCENT = 0x25;
const PLUS = 0x2b;
const PLUSES = /\+/g;

/**
 * The text of one key or value of a query: `+` read as a space, then percent-decoded as UTF-8.
 * A malformed percent-encoding, one that is not UTF-8 (or encodes a lone surrogate), or a raw
 * character that must be percent-encoded fails with `syntax_error`.
 */
export function decodeComponent(raw: string): string {
  // One pass over the characters (most keys and values are a few plain ones): is there anything to decode?
  let percent = false;
  let plus = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    // Outside printable ASCII: a control character, a space, anything beyond ASCII.
    if (c < 0x21 || c > 0x7e) throw new Failure('syntax_error', `the query holds a character that must be percent-encoded, in ${quoteText(raw)}`);
    if (c === PERCENT) percent = true;
    else if (c === PLUS) plus = true;
  }
  const spaced = plus ? raw.replace(PLUSES, ' ') : raw;
  if (!percent) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    throw new Failure('syntax_error', `malformed percent-encoding (or not UTF-8) in ${quoteText(raw)}`);
  }
}

/** Percent-encodes a key or a value (Unicode text) of a query, or a path segment. */
export function encodeComponent(text: string): string {
  return encodeURIComponent(text);
}

/**
 * Calls `pair(rawKey, rawValue)` for each pair of `search` (still encoded), in order. Empty pairs
 * (`a=1&&b=2`) are skipped; a pair without `=` has the empty value.
 */
export function forEachPair(search: string, pair: (rawKey: string, rawValue: string) => void): void {
  let start = 0;
  while (start <= search.length) {
    let end = search.indexOf('&', start);
    if (end === -1) end = search.length;
    if (end > start) {
      const eq = search.indexOf('=', start);
      if (eq === -1 || eq > end) pair(search.slice(start, end), '');
      else pair(search.slice(start, eq), search.slice(eq + 1, end));
    }
    start = end + 1;
  }
}
