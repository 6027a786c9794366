import type { Sink } from '../binary/sink.ts';
import { writeAscii, writeUtf8At } from '../binary/utf8-write.ts';
import { wireOf, type Wire, type WireAt } from '../binary/wire.ts';

// CBOR primitives (RFC 8949). Every data item starts with a head: the major type in the top 3
// bits, then the argument in the low 5 bits (< 24) or in the 1, 2, 4 or 8 bytes that follow
// (additional information 24, 25, 26, 27). Arguments take the shortest form (§4.2.1). The `…At`
// forms write at `p` into room the caller made and return the position after; the `Wire` methods
// make room and move `s.pos`.

const TWO_32 = 4294967296;

const UNSIGNED = 0x00; // major type 0
const NEGATIVE = 0x20; // major type 1: the value is -1 - argument
const BYTES = 0x40; // major type 2
const TEXT = 0x60; // major type 3
const ARRAY = 0x80; // major type 4
const MAP = 0xa0; // major type 5

function headSize(n: number): number {
  return n < 24 ? 1 : n < 0x100 ? 2 : n < 0x10000 ? 3 : n < TWO_32 ? 5 : 9;
}

/** Writes a head with a safe-integer argument (at most 9 bytes). */
function headAt(s: Sink, p: number, major: number, n: number): number {
  const buf = s.buf;
  if (n < 24) {
    buf[p] = major | n;
    return p + 1;
  }
  if (n < 0x100) {
    buf[p] = major | 24;
    buf[p + 1] = n;
    return p + 2;
  }
  if (n < 0x10000) {
    buf[p] = major | 25;
    s.view.setUint16(p + 1, n);
    return p + 3;
  }
  if (n < TWO_32) {
    buf[p] = major | 26;
    s.view.setUint32(p + 1, n);
    return p + 5;
  }
  buf[p] = major | 27;
  s.view.setUint32(p + 1, Math.floor(n / TWO_32));
  s.view.setUint32(p + 5, n >>> 0);
  return p + 9;
}

/** Writes a text head at `s.pos` and moves past it; the caller has made room. */
const textHead = (s: Sink, n: number) => {
  s.pos = headAt(s, s.pos, TEXT, n);
};

function stringAt(s: Sink, p: number, v: string): number {
  const n = v.length;
  if (n < 24) {
    // A one-byte head if ASCII (the byte length is then the length); anything else takes the general path.
    const end = writeAscii(s.buf, p + 1, v);
    if (end >= 0) {
      s.buf[p] = TEXT | n;
      return end;
    }
  }
  return writeUtf8At(s, p, v, headSize, textHead);
}

const at: WireAt = {
  nil: 0xf6, // simple value 22: null
  false: 0xf4, // simple value 20
  true: 0xf5, // simple value 21
  int: (s, p, v) => (v >= 0 ? headAt(s, p, UNSIGNED, v) : headAt(s, p, NEGATIVE, -1 - v)),
  bigint(s, p, v) {
    const negative = v < 0n;
    const n = negative ? -1n - v : v;
    if (n < 0x100000000n) return headAt(s, p, negative ? NEGATIVE : UNSIGNED, Number(n));
    s.buf[p] = (negative ? NEGATIVE : UNSIGNED) | 27; // 0x1b / 0x3b: 8-byte argument
    s.view.setBigUint64(p + 1, n);
    return p + 9;
  },
  float32(s, p, v) {
    s.buf[p] = 0xfa; // major 7, additional information 26: IEEE 754 binary32
    s.view.setFloat32(p + 1, v);
    return p + 5;
  },
  float64(s, p, v) {
    s.buf[p] = 0xfb; // major 7, additional information 27: IEEE 754 binary64
    s.view.setFloat64(p + 1, v);
    return p + 9;
  },
  string: stringAt,
  arrayHead: (s, p, n) => headAt(s, p, ARRAY, n),
  mapHead: (s, p, n) => headAt(s, p, MAP, n),
};

/** CBOR, as the compiled writer sees it. */
export const cborWire: Wire = wireOf(at, (s, p, n) => headAt(s, p, BYTES, n));
