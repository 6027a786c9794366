import type { Sink } from '../binary/sink.ts';
import { writeAscii, writeUtf8At } from '../binary/utf8-write.ts';
import { wireOf, type Wire, type WireAt } from '../binary/wire.ts';

// MessagePack primitives (https://github.com/msgpack/msgpack/blob/master/spec.md). Every integer
// takes the smallest encoding that holds it exactly. The `…At` forms write at `p` into room the
// caller made and return the position after; the `Wire` methods make room and move `s.pos`.

const TWO_32 = 4294967296;

function intAt(s: Sink, p: number, v: number): number {
  const buf = s.buf;
  if (v >= 0) {
    if (v < 0x80) {
      buf[p] = v; // positive fixint 0xxxxxxx 0x00-0x7f
      return p + 1;
    }
    if (v < 0x100) {
      buf[p] = 0xcc; // uint 8
      buf[p + 1] = v;
      return p + 2;
    }
    if (v < 0x10000) {
      buf[p] = 0xcd; // uint 16
      s.view.setUint16(p + 1, v);
      return p + 3;
    }
    if (v < TWO_32) {
      buf[p] = 0xce; // uint 32
      s.view.setUint32(p + 1, v);
      return p + 5;
    }
    buf[p] = 0xcf; // uint 64, from a safe integer
    s.view.setUint32(p + 1, Math.floor(v / TWO_32));
    s.view.setUint32(p + 5, v >>> 0);
    return p + 9;
  }
  if (v >= -0x20) {
    buf[p] = v & 0xff; // negative fixint 111xxxxx 0xe0-0xff
    return p + 1;
  }
  if (v >= -0x80) {
    buf[p] = 0xd0; // int 8
    buf[p + 1] = v & 0xff;
    return p + 2;
  }
  if (v >= -0x8000) {
    buf[p] = 0xd1; // int 16
    s.view.setInt16(p + 1, v);
    return p + 3;
  }
  if (v >= -0x80000000) {
    buf[p] = 0xd2; // int 32
    s.view.setInt32(p + 1, v);
    return p + 5;
  }
  buf[p] = 0xd3; // int 64, from a safe integer: two's complement high and low words
  const high = Math.floor(v / TWO_32);
  s.view.setInt32(p + 1, high);
  s.view.setUint32(p + 5, v - high * TWO_32);
  return p + 9;
}

function bigintAt(s: Sink, p: number, v: bigint): number {
  if (v >= -0x80000000n && v < 0x100000000n) return intAt(s, p, Number(v));
  if (v > 0n) {
    s.buf[p] = 0xcf; // uint 64
    s.view.setBigUint64(p + 1, v);
  } else {
    s.buf[p] = 0xd3; // int 64
    s.view.setBigInt64(p + 1, v);
  }
  return p + 9;
}

function strHeadSize(n: number): number {
  return n < 32 ? 1 : n < 0x100 ? 2 : n < 0x10000 ? 3 : 5;
}

/** Writes a str header at `s.pos` and moves past it; the caller has made room. */
function strHead(s: Sink, n: number): void {
  if (n < 32)
    s.buf[s.pos++] = 0xa0 | n; // fixstr 101xxxxx 0xa0-0xbf
  else s.pos = lengthHeadAt(s, s.pos, n, 0xd9); // str 8/16/32 0xd9-0xdb
}

function stringAt(s: Sink, p: number, v: string): number {
  const n = v.length;
  if (n < 32) {
    // A fixstr if ASCII (the byte length is then the length); anything else takes the general path.
    const end = writeAscii(s.buf, p + 1, v);
    if (end >= 0) {
      s.buf[p] = 0xa0 | n;
      return end;
    }
  }
  return writeUtf8At(s, p, v, strHeadSize, strHead);
}

/**
 * Str and bin headers beyond the fix forms share a layout: `head8` with a 1-byte length, then
 * `head8 + 1` with 2 bytes and `head8 + 2` with 4 (str 0xd9-0xdb, bin 0xc4-0xc6).
 */
function lengthHeadAt(s: Sink, p: number, n: number, head8: number): number {
  if (n < 0x100) {
    s.buf[p] = head8;
    s.buf[p + 1] = n;
    return p + 2;
  }
  if (n < 0x10000) {
    s.buf[p] = head8 + 1;
    s.view.setUint16(p + 1, n);
    return p + 3;
  }
  s.buf[p] = head8 + 2;
  s.view.setUint32(p + 1, n);
  return p + 5;
}

/** Array and map headers share a layout: a fix form below 16, then a 16-bit and a 32-bit form. */
function collectionHeadAt(s: Sink, p: number, n: number, fix: number, head16: number): number {
  if (n < 16) {
    s.buf[p] = fix | n;
    return p + 1;
  }
  if (n < 0x10000) {
    s.buf[p] = head16;
    s.view.setUint16(p + 1, n);
    return p + 3;
  }
  s.buf[p] = head16 + 1;
  s.view.setUint32(p + 1, n);
  return p + 5;
}

const TWO_34 = 17179869184;

/**
 * The timestamp extension (type -1), in the smallest of its three forms: timestamp 32 (fixext 4:
 * u32 seconds) for whole seconds from 1970 to 2106, timestamp 64 (fixext 8: 30 bits of
 * nanoseconds, 34 of seconds) from 1970 to 2514, timestamp 96 (ext 8 of 12 bytes: u32
 * nanoseconds, i64 seconds) for any other instant. Seconds are floored, so the nanoseconds of
 * an instant before 1970 count forwards from them, as the extension defines.
 */
function timestampAt(s: Sink, p: number, ms: number): number {
  const buf = s.buf;
  const seconds = Math.floor(ms / 1000);
  const nanos = (ms - seconds * 1000) * 1e6;
  if (seconds >= 0 && seconds < TWO_34) {
    if (nanos === 0 && seconds < TWO_32) {
      buf[p] = 0xd6; // fixext 4
      buf[p + 1] = 0xff; // type -1
      s.view.setUint32(p + 2, seconds);
      return p + 6;
    }
    buf[p] = 0xd7; // fixext 8
    buf[p + 1] = 0xff;
    // nanoseconds << 34 | seconds: the high word holds the nanoseconds and the top 2 bits of the seconds.
    s.view.setUint32(p + 2, nanos * 4 + Math.floor(seconds / TWO_32));
    s.view.setUint32(p + 6, seconds >>> 0);
    return p + 10;
  }
  buf[p] = 0xc7; // ext 8
  buf[p + 1] = 12;
  buf[p + 2] = 0xff;
  s.view.setUint32(p + 3, nanos);
  // i64 seconds, from a safe integer: two's complement high and low words.
  const high = Math.floor(seconds / TWO_32);
  s.view.setInt32(p + 7, high);
  s.view.setUint32(p + 11, seconds - high * TWO_32);
  return p + 15;
}

const at: WireAt = {
  nil: 0xc0,
  false: 0xc2,
  true: 0xc3,
  int: intAt,
  bigint: bigintAt,
  float32(s, p, v) {
    s.buf[p] = 0xca; // float 32
    s.view.setFloat32(p + 1, v);
    return p + 5;
  },
  float64(s, p, v) {
    s.buf[p] = 0xcb; // float 64
    s.view.setFloat64(p + 1, v);
    return p + 9;
  },
  string: stringAt,
  timestamp: timestampAt,
  arrayHead: (s, p, n) => collectionHeadAt(s, p, n, 0x90, 0xdc), // fixarray 0x90-0x9f, array 16/32 0xdc/0xdd
  mapHead: (s, p, n) => collectionHeadAt(s, p, n, 0x80, 0xde), // fixmap 0x80-0x8f, map 16/32 0xde/0xdf
};

/** MessagePack, as the compiled writer sees it. */
// bin 8/16/32 0xc4-0xc6: a bin 32 length is 32 bits (a Uint8Array may be longer in Node 22 and later).
export const msgpackWire: Wire = wireOf(at, (s, p, n) => lengthHeadAt(s, p, n, 0xc4), 0xffffffff);
