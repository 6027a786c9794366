import { bail } from '../../core/codegen/codegen.ts';

/**
 * The tokens the direct JSON parser (`generate-direct-reader.ts`) reads. It takes compact JSON only, as
 * `json.encode` and `JSON.stringify` write it, and each token reader a strict subset of JSON: on
 * anything else, however valid (whitespace, escapes in strings, an integer kind written with a
 * fraction or exponent), it bails (throws) and the codec takes its general path. So the subset
 * stays small, and every accepted token is read exactly as `JSON.parse` reads it. Each reader
 * starts at its token's first character and stops right after it.
 */
export class Cursor {
  text = '';
  pos = 0;
}

/** Consumes the exact text `token` (`[`, `false`). */
export function literal(c: Cursor, token: string): void {
  if (!c.text.startsWith(token, c.pos)) bail();
  c.pos += token.length;
}

/** True (and consumed) when the next token is `null`. */
export function takeNull(c: Cursor): boolean {
  if (!c.text.startsWith('null', c.pos)) return false;
  c.pos += 4;
  return true;
}

export function boolean(c: Cursor): boolean {
  if (c.text.startsWith('true', c.pos)) return ((c.pos += 4), true);
  literal(c, 'false');
  return false;
}

/** A string without escapes: JSON.parse's value is the text between the quotes. */
export function string(c: Cursor): string {
  const s = c.text;
  let p = c.pos;
  if (s.charCodeAt(p) !== 0x22) bail();
  const start = ++p;
  let ch = s.charCodeAt(p);
  while (ch !== 0x22) {
    // `!(ch >= 0x20)` also stops at the end of the text (NaN).
    if (!(ch >= 0x20) || ch === 0x5c) bail();
    ch = s.charCodeAt(++p);
  }
  c.pos = p + 1;
  const value = s.slice(start, p);
  // Text handed over as a JavaScript string may hold a raw lone surrogate: the general path refuses it.
  if (!value.isWellFormed()) bail();
  // V8 makes a slice of 13 characters or more a view into the whole text; a decoded value must not
  // keep the input alive, so such a slice is copied (flattening the concatenation copies it).
  return p - start < 13 ? value : (' ' + value).slice(1);
}

/** What the last `scanInteger` saw besides its first 15 digits. */
const int = { digits: 0, negative: false, rest: 0 };

/**
 * Scans an integer token `-?(0|[1-9][0-9]*)`; returns the value of its first 15 digits (all of
 * them, exactly, in the common case), `int` holds the digit count, the sign and the value of the
 * digits after the 15th. Bails on a fraction, an exponent or a leading zero.
 */
function scanInteger(c: Cursor): number {
  const s = c.text;
  let p = c.pos;
  const negative = s.charCodeAt(p) === 0x2d;
  if (negative) p++;
  const start = p;
  let n = s.charCodeAt(p) - 0x30;
  if (!(n >= 0 && n <= 9)) bail();
  let ch = s.charCodeAt(++p);
  let rest = 0;
  if (n !== 0) {
    const cut = start + 15;
    while (ch >= 0x30 && ch <= 0x39 && p < cut) {
      n = n * 10 + (ch - 0x30);
      ch = s.charCodeAt(++p);
    }
    while (ch >= 0x30 && ch <= 0x39) {
      rest = rest * 10 + (ch - 0x30);
      ch = s.charCodeAt(++p);
    }
  }
  if (ch === 0x2e || ch === 0x65 || ch === 0x45 || (ch >= 0x30 && ch <= 0x39)) bail();
  c.pos = p;
  int.digits = p - start;
  int.negative = negative;
  int.rest = rest;
  return n;
}

/** A plain integer token of at most 15 digits (its kind's bounds are checked by the caller). */
export function integer(c: Cursor): number {
  const n = scanInteger(c);
  if (int.digits > 15) bail();
  return int.negative ? -n : n;
}

// An integer of 16 to 20 digits is assembled as two 32-bit words and read back through a
// BigUint64Array: exact, and about twice as fast as `BigInt(text)`.
const words = new Uint32Array(2);
const asU64 = new BigUint64Array(words.buffer);
const LOW = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1 ? 0 : 1;
const TWO32 = 2 ** 32;
const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/** A plain integer token that fits `i64` (`signed`) or `u64`, as an exact bigint. */
export function bigInteger(c: Cursor, signed: boolean): bigint {
  const n = scanInteger(c);
  const { digits, negative, rest } = int;
  if (digits <= 15) {
    if (negative && !signed && n !== 0) bail();
    return BigInt(negative ? -n : n);
  }
  if (digits > 20 || (negative && !signed)) bail();
  // value = n·10^k + rest with n < 10^15 and k ≤ 5: every step below stays under 2^53.
  const scale = POW10[digits - 15]!;
  const low = (n % TWO32) * scale + rest;
  const high = Math.floor(n / TWO32) * scale + Math.floor(low / TWO32);
  if (high >= TWO32) bail();
  words[LOW] = low % TWO32;
  words[1 - LOW] = high;
  const magnitude = asU64[0]!;
  if (!signed) return magnitude;
  // i64 holds magnitudes up to 2^63 - 1, and 2^63 itself when negative.
  if (high >= 2 ** 31 && !(negative && high === 2 ** 31 && words[LOW] === 0)) bail();
  return negative ? -magnitude : magnitude;
}

/**
 * `bigInteger`, or the same digits as a string (`"-123"`), as `t.i64({ json: 'string' })` takes
 * them. A string with anything else in it, or `"-0"`, bails: the general path decides.
 */
export function bigIntegerOrText(c: Cursor, signed: boolean): bigint {
  const s = c.text;
  if (s.charCodeAt(c.pos) !== 0x22) return bigInteger(c, signed);
  const start = ++c.pos;
  const n = bigInteger(c, signed);
  if (s.charCodeAt(c.pos) !== 0x22 || (n === 0n && s.charCodeAt(start) === 0x2d)) bail();
  c.pos++;
  return n;
}

/** Any number token, as JSON.parse reads it (correctly rounded). */
export function number(c: Cursor): number {
  const s = c.text;
  const begin = c.pos;
  let p = begin;
  if (s.charCodeAt(p) === 0x2d) p++;
  const start = p;
  let ch = s.charCodeAt(p);
  let n = ch - 0x30;
  if (!(n >= 0 && n <= 9)) bail();
  ch = s.charCodeAt(++p);
  if (n === 0 && ch >= 0x30 && ch <= 0x39) bail();
  while (ch >= 0x30 && ch <= 0x39) {
    n = n * 10 + (ch - 0x30);
    ch = s.charCodeAt(++p);
  }
  let fraction = 0;
  if (ch === 0x2e /* . */) {
    const from = ++p;
    ch = s.charCodeAt(p);
    while (ch >= 0x30 && ch <= 0x39) {
      n = n * 10 + (ch - 0x30);
      ch = s.charCodeAt(++p);
    }
    fraction = p - from;
    if (fraction === 0) bail();
  }
  let exact = p - start - (fraction > 0 ? 1 : 0) <= 15;
  if (ch === 0x65 || ch === 0x45 /* e E */) {
    ch = s.charCodeAt(++p);
    if (ch === 0x2b || ch === 0x2d) ch = s.charCodeAt(++p);
    const from = p;
    while (ch >= 0x30 && ch <= 0x39) ch = s.charCodeAt(++p);
    if (p === from) bail();
    exact = false;
  }
  c.pos = p;
  if (!exact) return Number(s.slice(begin, p));
  // At most 15 digits and a power of ten up to 1e15: both exact, so one division rounds correctly.
  n /= POW10[fraction]!;
  return start !== begin ? -n : n;
}
