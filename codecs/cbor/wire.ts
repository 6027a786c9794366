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

/** A float64 and its bits, to step to the next float64 away from zero. */
const scratch = new Float64Array(1);
const scratchBits = new BigUint64Array(scratch.buffer);

/**
 * The float64 seconds of `ms`, for tag 1: `ms / 1000`, or the next float64 away from zero when
 * that one times 1000 falls short of `ms` and the next still rounds to it. Readers that round
 * seconds × 1000 (cbor-x, lacquer) get `ms` back either way, and readers that truncate it
 * (`new Date(seconds * 1000)`, as the `cbor` package does) then get it too, not 1 ms less.
 */
function floatSeconds(ms: number): number {
  const seconds = ms / 1000;
  if (Math.abs(seconds * 1000) >= Math.abs(ms)) return seconds;
  scratch[0] = seconds;
  scratchBits[0]! += 1n;
  const next = scratch[0]!;
  return Math.round(next * 1000) === ms ? next : seconds;
}

/**
 * Tag 1 (epoch-based date/time, RFC 8949 §3.4.2) over the seconds since the epoch: an integer
 * for whole seconds whose argument fits 4 bytes (years 1833 to 2106), else a float64, which
 * holds every whole second a `Date` holds, and reads back to the millisecond (rounding
 * seconds × 1000) within about 2^52 ms of the epoch, some 140,000 years either side. (An 8-byte
 * integer is valid CBOR too, but cbor-x reads it as a bigint, and its tag 1 then fails.)
 */
function timestampAt(s: Sink, p: number, ms: number): number {
  s.buf[p] = 0xc1; // major type 6, tag 1
  const seconds = ms / 1000;
  if (ms % 1000 === 0 && seconds >= -TWO_32 && seconds < TWO_32) return at.int(s, p + 1, seconds);
  return at.float64(s, p + 1, floatSeconds(ms));
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
  timestamp: timestampAt,
  arrayHead: (s, p, n) => headAt(s, p, ARRAY, n),
  mapHead: (s, p, n) => headAt(s, p, MAP, n),
};

/** CBOR, as the compiled writer sees it. */
export const cborWire: Wire = wireOf(at, (s, p, n) => headAt(s, p, BYTES, n));
