// The query string as application/x-www-form-urlencoded text: `&`-separated `key=value` pairs,
// `+` a space, percent-encoded UTF-8. Stricter than the WHATWG parser, which turns what it cannot
// decode into U+FFFD: here that is an error, as is a raw character that must be encoded. Decoding
// throws nothing: a text that does not decode is found by one scan, before `decodeURIComponent`
// (which then cannot throw) and without the cost of an exception per malformed value.
import { quoteText } from '../../../core/errors/failure.ts';

const PERCENT = 0x25;
const PLUS = 0x2b;
const PLUSES = /\+/g;

/**
 * The text of one key or value of a query: `+` read as a space, then percent-decoded as UTF-8;
 * `undefined` for a malformed percent-encoding, one that is not UTF-8 (an overlong form, a
 * surrogate, beyond U+10FFFF), or a raw character that must be percent-encoded
 * (`undecodableDetail` says which).
 */
export function decodeComponent(raw: string): string | undefined {
  // One pass over the characters (most keys and values are a few plain ones): is there anything to decode?
  let percent = false;
  let plus = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    // Outside printable ASCII: a control character, a space, anything beyond ASCII.
    if (c < 0x21 || c > 0x7e) return undefined;
    if (c === PERCENT) percent = true;
    else if (c === PLUS) plus = true;
  }
  const spaced = plus ? raw.replace(PLUSES, ' ') : raw;
  if (!percent) return spaced;
  return isWellEncoded(raw) ? decodeURIComponent(spaced) : undefined;
}

/** Why `decodeComponent(raw)` answered `undefined`, for the `syntax_error` it becomes. */
export function undecodableDetail(raw: string): string {
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c < 0x21 || c > 0x7e) return `the query holds a character that must be percent-encoded, in ${quoteText(raw)}`;
  }
  return `malformed percent-encoding (or not UTF-8) in ${quoteText(raw)}`;
}

/** Percent-encodes a key or a value (Unicode text) of a query, or a path segment. */
export function encodeComponent(text: string): string {
  return encodeURIComponent(text);
}

/**
 * Calls `pair(rawKey, rawValue)` for each pair of `search` (still encoded), in order, until `pair`
 * answers `false`. Empty pairs (`a=1&&b=2`) are skipped; a pair without `=` has the empty value.
 */
export function forEachPair(search: string, pair: (rawKey: string, rawValue: string) => boolean): void {
  let start = 0;
  while (start <= search.length) {
    let end = search.indexOf('&', start);
    if (end === -1) end = search.length;
    if (end > start) {
      const eq = search.indexOf('=', start);
      const going =
        eq === -1 || eq > end
          ? pair(search.slice(start, end), '')
          : pair(search.slice(start, eq), search.slice(eq + 1, end));
      if (!going) return;
    }
    start = end + 1;
  }
}

/** The value of a hex digit, or -1. */
function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/** The byte `%XX` at `i` encodes, or -1 when `i` is not such a triplet. */
function byteAt(raw: string, i: number): number {
  if (i + 2 >= raw.length || raw.charCodeAt(i) !== PERCENT) return -1;
  const high = hexDigit(raw.charCodeAt(i + 1));
  const low = hexDigit(raw.charCodeAt(i + 2));
  return high < 0 || low < 0 ? -1 : (high << 4) | low;
}

/**
 * Whether every `%` of `raw` (printable ASCII) begins a triplet and the triplets' bytes are
 * well-formed UTF-8 (RFC 3629: no overlong form, no surrogate, nothing beyond U+10FFFF): exactly
 * what `decodeURIComponent` decodes without throwing.
 */
function isWellEncoded(raw: string): boolean {
  let i = raw.indexOf('%');
  while (i !== -1) {
    const lead = byteAt(raw, i);
    if (lead < 0) return false;
    i += 3;
    if (lead >= 0x80) {
      // The sequence's length, and the range of its second byte (the first continuation).
      let more: number;
      let low = 0x80;
      let high = 0xbf;
      if (lead >= 0xc2 && lead <= 0xdf) more = 1;
      else if (lead >= 0xe0 && lead <= 0xef) {
        more = 2;
        if (lead === 0xe0)
          low = 0xa0; // overlong below U+0800
        else if (lead === 0xed) high = 0x9f; // U+D800..U+DFFF, the surrogates
      } else if (lead >= 0xf0 && lead <= 0xf4) {
        more = 3;
        if (lead === 0xf0)
          low = 0x90; // overlong below U+10000
        else if (lead === 0xf4) high = 0x8f; // beyond U+10FFFF
      } else return false;
      for (let k = 0; k < more; k++) {
        const next = byteAt(raw, i);
        if (next < low || next > high) return false;
        low = 0x80;
        high = 0xbf;
        i += 3;
      }
    }
    i = raw.indexOf('%', i);
  }
  return true;
}
