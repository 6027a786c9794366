import { Sink } from '../binary/sink.ts';
import { preEncode, writeUtf8 } from '../binary/utf8.ts';
import type { Wire } from '../binary/wire.ts';

// CBOR primitives (RFC 8949). Every data item starts with a head: the major type in the top 3
// bits, then the argument in the low 5 bits (< 24) or in the 1, 2, 4 or 8 bytes that follow
// (additional information 24, 25, 26, 27). Arguments take the shortest form (§4.2.1).

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

/** Writes a head with a safe-integer argument; the caller has made room for 9 bytes. */
function headAt(s: Sink, major: number, n: number): void {
  const p = s.pos;
  if (n < 24) {
    s.buf[p] = major | n;
    s.pos = p + 1;
  } else if (n < 0x100) {
    s.buf[p] = major | 24;
    s.buf[p + 1] = n;
    s.pos = p + 2;
  } else if (n < 0x10000) {
    s.buf[p] = major | 25;
    s.view.setUint16(p + 1, n);
    s.pos = p + 3;
  } else if (n < TWO_32) {
    s.buf[p] = major | 26;
    s.view.setUint32(p + 1, n);
    s.pos = p + 5;
  } else {
    s.buf[p] = major | 27;
    s.view.setUint32(p + 1, Math.floor(n / TWO_32));
    s.view.setUint32(p + 5, n >>> 0);
    s.pos = p + 9;
  }
}

function head(s: Sink, major: number, n: number): void {
  s.ensure(9);
  headAt(s, major, n);
}

const textHead = (s: Sink, n: number) => headAt(s, TEXT, n);
const keySink = new Sink(64);

/** CBOR, as the compiled writer sees it. */
export const cborWire: Wire = {
  nil(s) {
    s.ensure(1);
    s.buf[s.pos++] = 0xf6; // simple value 22: null
  },
  bool(s, v) {
    s.ensure(1);
    s.buf[s.pos++] = v ? 0xf5 : 0xf4; // simple values 21 / 20: true / false
  },
  int(s, v) {
    if (v >= 0) head(s, UNSIGNED, v);
    else head(s, NEGATIVE, -1 - v);
  },
  bigint(s, v) {
    const negative = v < 0n;
    const n = negative ? -1n - v : v;
    if (n < 0x100000000n) return head(s, negative ? NEGATIVE : UNSIGNED, Number(n));
    s.ensure(9);
    s.buf[s.pos] = (negative ? NEGATIVE : UNSIGNED) | 27; // 0x1b / 0x3b: 8-byte argument
    s.view.setBigUint64(s.pos + 1, n);
    s.pos += 9;
  },
  float32(s, v) {
    s.ensure(5);
    s.buf[s.pos] = 0xfa; // major 7, additional information 26: IEEE 754 binary32
    s.view.setFloat32(s.pos + 1, v);
    s.pos += 5;
  },
  float64(s, v) {
    s.ensure(9);
    s.buf[s.pos] = 0xfb; // major 7, additional information 27: IEEE 754 binary64
    s.view.setFloat64(s.pos + 1, v);
    s.pos += 9;
  },
  string(s, v) {
    writeUtf8(s, v, headSize, textHead);
  },
  bytes(s, v) {
    head(s, BYTES, v.length);
    s.ensure(v.length);
    s.buf.set(v, s.pos);
    s.pos += v.length;
  },
  arrayHead(s, n) {
    head(s, ARRAY, n);
  },
  mapHead(s, n) {
    head(s, MAP, n);
  },
  encodeKey(key) {
    return preEncode(key, headSize, textHead, keySink);
  },
};
