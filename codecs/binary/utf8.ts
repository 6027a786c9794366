import { Failure } from '../../core/errors/failure.ts';
import type { Sink } from './sink.ts';

/**
 * Strings up to this many UTF-16 units are encoded and decoded by hand: below it the call into
 * `TextEncoder`/`TextDecoder` costs more than the loop (the same trade msgpack-javascript makes).
 */
const SHORT_STRING = 64;

const encoder = new TextEncoder();
/** `fatal` turns invalid UTF-8 into an error; `ignoreBOM` keeps a leading U+FEFF as data. */
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** How many bytes the format's string header takes for a payload of `byteLength` bytes. */
export type HeadSize = (byteLength: number) => number;
/** Writes the format's string header at `pos` and moves past it; the caller has made room. */
export type HeadWriter = (s: Sink, byteLength: number) => void;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const nativeWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;
const isWellFormed: (s: string) => boolean =
  nativeWellFormed === undefined ? (s) => !LONE_SURROGATE.test(s) : (s) => nativeWellFormed.call(s);

/** UTF-8 cannot hold a lone surrogate; writing U+FFFD instead would silently change the value. */
function loneSurrogate(): Failure {
  return new Failure('type_mismatch', 'cannot write a string holding a lone surrogate as UTF-8');
}

/** Writes `v` as a header (from `headSize`/`writeHead`) followed by its UTF-8 bytes. */
export function writeUtf8(s: Sink, v: string, headSize: HeadSize, writeHead: HeadWriter): void {
  const n = v.length;
  if (n <= SHORT_STRING) {
    s.ensure(9 + n * 3);
    const buf = s.buf;
    // Optimistically ASCII: the header for n bytes, then one byte per unit.
    let p = s.pos + headSize(n);
    let i = 0;
    for (; i < n; i++) {
      const c = v.charCodeAt(i);
      if (c >= 0x80) break;
      buf[p++] = c;
    }
    writeHead(s, i === n ? n : utf8Length(v));
    s.pos = i === n ? p : encodeUtf8(buf, s.pos, v);
    return;
  }
  if (!isWellFormed(v)) throw loneSurrogate();
  const max = n * 3;
  const reserved = headSize(max);
  s.ensure(reserved + max);
  const start = s.pos + reserved;
  const written = encoder.encodeInto(v, s.buf.subarray(start, start + max)).written;
  const actual = headSize(written);
  // The header was sized for the worst case; a smaller one moves the bytes back.
  if (actual !== reserved) s.buf.copyWithin(s.pos + actual, start, start + written);
  writeHead(s, written);
  s.pos += written;
}

/** The UTF-8 length of `v`; throws on a lone surrogate. */
function utf8Length(v: string): number {
  let len = 0;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c < 0x80) len += 1;
    else if (c < 0x800) len += 2;
    else if (c < 0xd800 || c > 0xdfff) len += 3;
    else {
      const next = v.charCodeAt(i + 1);
      if (c > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) throw loneSurrogate();
      len += 4;
      i++;
    }
  }
  return len;
}

/** Encodes a well-formed `v` (checked by `utf8Length`) at `p`; returns the position after it. */
function encodeUtf8(buf: Uint8Array, p: number, v: string): number {
  for (let i = 0; i < v.length; i++) {
    let c = v.charCodeAt(i);
    if (c < 0x80) {
      buf[p++] = c;
    } else if (c < 0x800) {
      buf[p++] = 0xc0 | (c >> 6);
      buf[p++] = 0x80 | (c & 0x3f);
    } else if (c < 0xd800 || c > 0xdfff) {
      buf[p++] = 0xe0 | (c >> 12);
      buf[p++] = 0x80 | ((c >> 6) & 0x3f);
      buf[p++] = 0x80 | (c & 0x3f);
    } else {
      c = 0x10000 + ((c - 0xd800) << 10) + (v.charCodeAt(++i) - 0xdc00);
      buf[p++] = 0xf0 | (c >> 18);
      buf[p++] = 0x80 | ((c >> 12) & 0x3f);
      buf[p++] = 0x80 | ((c >> 6) & 0x3f);
      buf[p++] = 0x80 | (c & 0x3f);
    }
  }
  return p;
}

/** Decodes `bytes[start, end)` as strict UTF-8, or returns `undefined` when it is not valid UTF-8. */
export function readUtf8(bytes: Uint8Array, start: number, end: number): string | undefined {
  const short = readShortAscii(bytes, start, end);
  if (short !== undefined) return short;
  try {
    return decoder.decode(bytes.subarray(start, end));
  } catch {
    return undefined;
  }
}

/**
 * `bytes[start, end)` as a string when it is ASCII of at most {@link SHORT_STRING} bytes (most keys
 * and ids), else `undefined`, for the caller's `TextDecoder`.
 */
export function readShortAscii(bytes: Uint8Array, start: number, end: number): string | undefined {
  if (end - start > SHORT_STRING) return undefined;
  let high = 0;
  for (let i = start; i < end; i++) high |= bytes[i]!;
  if (high >= 0x80) return undefined;
  // One `fromCharCode` per 8 bytes instead of one string per byte.
  let s = '';
  let p = start;
  for (; end - p >= 8; p += 8) s += ascii(bytes, p, 8);
  return s + ascii(bytes, p, end - p);
}

const fromCharCode = String.fromCharCode;

/** The `n` (at most 8) ASCII bytes at `p` as a string; fixed arities keep `fromCharCode` cheap. */
function ascii(b: Uint8Array, p: number, n: number): string {
  switch (n) {
    case 0:
      return '';
    case 1:
      return fromCharCode(b[p]!);
    case 2:
      return fromCharCode(b[p]!, b[p + 1]!);
    case 3:
      return fromCharCode(b[p]!, b[p + 1]!, b[p + 2]!);
    case 4:
      return fromCharCode(b[p]!, b[p + 1]!, b[p + 2]!, b[p + 3]!);
    case 5:
      return fromCharCode(b[p]!, b[p + 1]!, b[p + 2]!, b[p + 3]!, b[p + 4]!);
    case 6:
      return fromCharCode(b[p]!, b[p + 1]!, b[p + 2]!, b[p + 3]!, b[p + 4]!, b[p + 5]!);
    case 7:
      return fromCharCode(b[p]!, b[p + 1]!, b[p + 2]!, b[p + 3]!, b[p + 4]!, b[p + 5]!, b[p + 6]!);
    default:
      return fromCharCode(b[p]!, b[p + 1]!, b[p + 2]!, b[p + 3]!, b[p + 4]!, b[p + 5]!, b[p + 6]!, b[p + 7]!);
  }
}
