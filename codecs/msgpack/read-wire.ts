import { takeBytes, takeText, type DirectCursor, type ReadWire } from '../binary/direct-reader.ts';
import {
  float32At,
  float64At,
  int16At,
  int32At,
  int64At,
  int8At,
  uint16At,
  uint32At,
  uint64At,
} from '../binary/read-numbers.ts';
import { MAX_DATE_MS } from '../../core/kinds/timestamp.ts';

// MessagePack items for the direct reader: each reads the families that hold its kind exactly
// and returns undefined (or -1) for anything else.

/** A big-endian length of 1, 2 or 4 bytes after the header byte at `c.pos`; -1 past the end. */
function length(c: DirectCursor, size: 1 | 2 | 4): number {
  const p = c.pos + 1;
  if (p + size > c.end) return -1;
  c.pos = p + size;
  return size === 1 ? c.bytes[p]! : size === 2 ? uint16At(c.bytes, p) : uint32At(c.bytes, p);
}

function int(c: DirectCursor): number | undefined {
  const b = c.bytes[c.pos];
  if (b === undefined) return undefined;
  if (b < 0x80) return (c.pos++, b); // positive fixint
  if (b >= 0xe0) return (c.pos++, b - 0x100); // negative fixint
  const p = c.pos + 1;
  switch (b) {
    case 0xcc:
      if (p + 1 > c.end) return undefined;
      c.pos = p + 1;
      return c.bytes[p]!; // uint 8
    case 0xcd:
      if (p + 2 > c.end) return undefined;
      c.pos = p + 2;
      return uint16At(c.bytes, p); // uint 16
    case 0xce:
      if (p + 4 > c.end) return undefined;
      c.pos = p + 4;
      return uint32At(c.bytes, p); // uint 32
    case 0xd0:
      if (p + 1 > c.end) return undefined;
      c.pos = p + 1;
      return int8At(c.bytes, p); // int 8
    case 0xd1:
      if (p + 2 > c.end) return undefined;
      c.pos = p + 2;
      return int16At(c.bytes, p); // int 16
    case 0xd2:
      if (p + 4 > c.end) return undefined;
      c.pos = p + 4;
      return int32At(c.bytes, p); // int 32
    case 0xcf:
    case 0xd3: {
      // uint 64, int 64: only when a number holds it exactly
      if (p + 8 > c.end) return undefined;
      const n = b === 0xcf ? Number(uint64At(c.bytes, p)) : Number(int64At(c.bytes, p));
      if (!Number.isSafeInteger(n)) return undefined;
      c.pos = p + 8;
      return n;
    }
    default:
      return undefined;
  }
}

/**
 * The timestamp extension (-1) as lacquer writes it: timestamp32 (fixext 4), timestamp64 (fixext
 * 8) and timestamp96 (ext 8 of 12 bytes), as a `Date`; undefined for anything else, nanoseconds
 * above 999999999 and instants a `Date` does not hold.
 */
export function timestamp(c: DirectCursor): Date | undefined {
  const b = c.bytes;
  const p = c.pos;
  const head = b[p];
  if (head === 0xd7) {
    // fixext 8: nanoseconds << 34 | seconds
    if (b[p + 1] !== 0xff || p + 10 > c.end) return undefined;
    const high = uint32At(b, p + 2);
    const nanos = high >>> 2;
    if (nanos > 999_999_999) return undefined;
    c.pos = p + 10;
    return new Date(((high & 3) * 4294967296 + uint32At(b, p + 6)) * 1000 + Math.floor(nanos / 1e6));
  }
  if (head === 0xd6) {
    // fixext 4: seconds
    if (b[p + 1] !== 0xff || p + 6 > c.end) return undefined;
    c.pos = p + 6;
    return new Date(uint32At(b, p + 2) * 1000);
  }
  if (head === 0xc7) {
    // ext 8 of 12 bytes: nanoseconds, then seconds as an i64
    if (b[p + 1] !== 12 || b[p + 2] !== 0xff || p + 15 > c.end) return undefined;
    const nanos = uint32At(b, p + 3);
    const high = int32At(b, p + 7);
    // Beyond ±2^52 seconds is far beyond a Date: the tree path reports it.
    if (nanos > 999_999_999 || high >= 0x100000 || high < -0x100000) return undefined;
    const ms = (high * 4294967296 + uint32At(b, p + 11)) * 1000 + Math.floor(nanos / 1e6);
    if (!(ms >= -MAX_DATE_MS && ms <= MAX_DATE_MS)) return undefined;
    c.pos = p + 15;
    return new Date(ms);
  }
  return undefined;
}

export const msgpackReadWire: ReadWire = {
  arrayHead(c) {
    const b = c.bytes[c.pos];
    if (b === undefined) return -1;
    if (b >= 0x90 && b <= 0x9f) return (c.pos++, b & 0x0f); // fixarray
    if (b === 0xdc) return length(c, 2); // array 16
    if (b === 0xdd) return length(c, 4); // array 32
    return -1;
  },
  mapHead(c) {
    const b = c.bytes[c.pos];
    if (b === undefined) return -1;
    if (b >= 0x80 && b <= 0x8f) return (c.pos++, b & 0x0f); // fixmap
    if (b === 0xde) return length(c, 2); // map 16
    if (b === 0xdf) return length(c, 4); // map 32
    return -1;
  },
  nil(c) {
    if (c.bytes[c.pos] !== 0xc0) return false;
    c.pos++;
    return true;
  },
  string(c) {
    const b = c.bytes[c.pos];
    let n: number;
    if (b === undefined) return undefined;
    if (b >= 0xa0 && b <= 0xbf)
      (n = b & 0x1f), c.pos++; // fixstr
    else if (b === 0xd9)
      n = length(c, 1); // str 8
    else if (b === 0xda)
      n = length(c, 2); // str 16
    else if (b === 0xdb)
      n = length(c, 4); // str 32
    else return undefined;
    return takeText(c, n);
  },
  bool(c) {
    const b = c.bytes[c.pos];
    if (b !== 0xc2 && b !== 0xc3) return undefined;
    c.pos++;
    return b === 0xc3;
  },
  int,
  bigint(c) {
    const b = c.bytes[c.pos];
    const p = c.pos + 1;
    if ((b === 0xcf || b === 0xd3) && p + 8 <= c.end) {
      c.pos = p + 8;
      return b === 0xcf ? uint64At(c.bytes, p) : int64At(c.bytes, p);
    }
    const n = int(c);
    return n === undefined ? undefined : BigInt(n);
  },
  float(c) {
    const b = c.bytes[c.pos];
    const p = c.pos + 1;
    if (b === 0xcb && p + 8 <= c.end) return ((c.pos = p + 8), float64At(c.bytes, p)); // float 64
    if (b === 0xca && p + 4 <= c.end) return ((c.pos = p + 4), float32At(c.bytes, p)); // float 32
    return int(c);
  },
  bytes(c) {
    const b = c.bytes[c.pos];
    let n: number;
    if (b === 0xc4)
      n = length(c, 1); // bin 8
    else if (b === 0xc5)
      n = length(c, 2); // bin 16
    else if (b === 0xc6)
      n = length(c, 4); // bin 32
    else return undefined;
    return takeBytes(c, n);
  },
  timestamp,
  inline: {
    nil: 0xc0,
    false: 0xc2,
    true: 0xc3,
    map: [0x80, 0x8f],
    array: [0x90, 0x9f],
    string: [0xa0, 0xbf],
    str8: 0xd9, // fixmap, fixarray, fixstr, str 8
    smallUint: 0x7f,
    uint8: 0xcc,
    uint16: 0xcd,
    uint32: 0xce,
    uint64: 0xcf, // positive fixint, uint 8..64
    float32: 0xca,
    float64: 0xcb,
  },
};
