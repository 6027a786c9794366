import { takeBytes, takeText, type DirectCursor, type ReadWire } from '../binary/direct-reader.ts';
import { float32At, float64At, uint16At, uint32At, uint64At } from '../binary/read-numbers.ts';
import { MAX_DATE_MS } from '../../core/kinds/timestamp.ts';

// CBOR items for the direct reader: definite lengths only (indefinite ones, tags, half floats
// and simple values other than false/true/null go to the parser), undefined or -1 otherwise.

/** The argument of a head of major type `major` at `c.pos` (moving past the head), or -1. */
function argument(c: DirectCursor, major: number): number {
  const ib = c.bytes[c.pos];
  if (ib === undefined || ib >> 5 !== major) return -1;
  const ai = ib & 0x1f;
  const p = c.pos + 1;
  if (ai < 24) return ((c.pos = p), ai);
  switch (ai) {
    case 24:
      if (p + 1 > c.end) return -1;
      c.pos = p + 1;
      return c.bytes[p]!; // 1-byte argument
    case 25:
      if (p + 2 > c.end) return -1;
      c.pos = p + 2;
      return uint16At(c.bytes, p); // 2-byte argument
    case 26:
      if (p + 4 > c.end) return -1;
      c.pos = p + 4;
      return uint32At(c.bytes, p); // 4-byte argument
    case 27: {
      // 8-byte argument: only when a number holds it exactly
      if (p + 8 > c.end) return -1;
      const n = Number(uint64At(c.bytes, p));
      if (!Number.isSafeInteger(n)) return -1;
      c.pos = p + 8;
      return n;
    }
    default:
      return -1; // 28-30 reserved, 31 indefinite
  }
}

function int(c: DirectCursor): number | undefined {
  const ib = c.bytes[c.pos];
  if (ib === undefined) return undefined;
  if (ib < 0x18) return (c.pos++, ib); // major 0, small
  const major = ib >> 5;
  if (major > 1) return undefined;
  const n = argument(c, major);
  if (n < 0) return undefined;
  return major === 0 ? n : -1 - n;
}

/**
 * Tag 1 (epoch seconds) over an integer or a binary64, as lacquer writes it, as a `Date`; undefined
 * for anything else (tag 0 text, other float widths, bignums) and instants a `Date` does not hold.
 */
export function timestamp(c: DirectCursor): Date | undefined {
  const b = c.bytes;
  const p = c.pos;
  if (b[p] !== 0xc1) return undefined; // tag 1
  let ms: number;
  if (b[p + 1] === 0xfb) {
    // binary64: the nearest millisecond
    if (p + 10 > c.end) return undefined;
    ms = Math.round(float64At(b, p + 2) * 1000);
    c.pos = p + 10;
  } else {
    c.pos = p + 1;
    const n = int(c);
    if (n === undefined) return undefined;
    ms = n * 1000;
  }
  // NaN fails too.
  return ms >= -MAX_DATE_MS && ms <= MAX_DATE_MS ? new Date(ms) : undefined;
}

export const cborReadWire: ReadWire = {
  arrayHead: (c) => argument(c, 4),
  mapHead: (c) => argument(c, 5),
  nil(c) {
    if (c.bytes[c.pos] !== 0xf6) return false; // null
    c.pos++;
    return true;
  },
  string(c) {
    const n = argument(c, 3);
    return takeText(c, n);
  },
  bool(c) {
    const b = c.bytes[c.pos];
    if (b !== 0xf4 && b !== 0xf5) return undefined; // false, true
    c.pos++;
    return b === 0xf5;
  },
  int,
  bigint(c) {
    const ib = c.bytes[c.pos];
    const p = c.pos + 1;
    if ((ib === 0x1b || ib === 0x3b) && p + 8 <= c.end) {
      // 8-byte argument, major 0 or 1
      c.pos = p + 8;
      const n = uint64At(c.bytes, p);
      return ib === 0x1b ? n : -1n - n;
    }
    const n = int(c);
    return n === undefined ? undefined : BigInt(n);
  },
  float(c) {
    const b = c.bytes[c.pos];
    const p = c.pos + 1;
    if (b === 0xfb && p + 8 <= c.end) return ((c.pos = p + 8), float64At(c.bytes, p)); // binary64
    if (b === 0xfa && p + 4 <= c.end) return ((c.pos = p + 4), float32At(c.bytes, p)); // binary32
    return int(c);
  },
  bytes(c) {
    const n = argument(c, 2);
    return takeBytes(c, n);
  },
  timestamp,
  inline: {
    nil: 0xf6,
    false: 0xf4,
    true: 0xf5,
    // Majors 5, 4 and 3 with the length in the head; 0x78 is a text string with a 1-byte length.
    map: [0xa0, 0xb7],
    array: [0x80, 0x97],
    string: [0x60, 0x77],
    str8: 0x78,
    smallUint: 0x17,
    uint8: 0x18,
    uint16: 0x19,
    uint32: 0x1a,
    uint64: 0x1b, // major 0: in the head, 1..8-byte argument
    float32: 0xfa,
    float64: 0xfb, // binary32, binary64
  },
};
