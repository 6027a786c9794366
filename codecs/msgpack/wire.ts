import { Sink } from '../binary/sink.ts';
import { preEncode, writeUtf8 } from '../binary/utf8.ts';
import type { Wire } from '../binary/wire.ts';

// MessagePack primitives (https://github.com/msgpack/msgpack/blob/master/spec.md). Every integer
// takes the smallest encoding that holds it exactly; callers have not reserved room unless noted.

const TWO_32 = 4294967296;

function int(s: Sink, v: number): void {
  s.ensure(9);
  const buf = s.buf;
  const p = s.pos;
  if (v >= 0) {
    if (v < 0x80) {
      buf[p] = v; // positive fixint 0xxxxxxx 0x00-0x7f
      s.pos = p + 1;
    } else if (v < 0x100) {
      buf[p] = 0xcc; // uint 8
      buf[p + 1] = v;
      s.pos = p + 2;
    } else if (v < 0x10000) {
      buf[p] = 0xcd; // uint 16
      s.view.setUint16(p + 1, v);
      s.pos = p + 3;
    } else if (v < TWO_32) {
      buf[p] = 0xce; // uint 32
      s.view.setUint32(p + 1, v);
      s.pos = p + 5;
    } else {
      buf[p] = 0xcf; // uint 64, from a safe integer
      s.view.setUint32(p + 1, Math.floor(v / TWO_32));
      s.view.setUint32(p + 5, v >>> 0);
      s.pos = p + 9;
    }
  } else if (v >= -0x20) {
    buf[p] = v & 0xff; // negative fixint 111xxxxx 0xe0-0xff
    s.pos = p + 1;
  } else if (v >= -0x80) {
    buf[p] = 0xd0; // int 8
    buf[p + 1] = v & 0xff;
    s.pos = p + 2;
  } else if (v >= -0x8000) {
    buf[p] = 0xd1; // int 16
    s.view.setInt16(p + 1, v);
    s.pos = p + 3;
  } else if (v >= -0x80000000) {
    buf[p] = 0xd2; // int 32
    s.view.setInt32(p + 1, v);
    s.pos = p + 5;
  } else {
    buf[p] = 0xd3; // int 64, from a safe integer: two's complement high and low words
    const high = Math.floor(v / TWO_32);
    s.view.setInt32(p + 1, high);
    s.view.setUint32(p + 5, v - high * TWO_32);
    s.pos = p + 9;
  }
}

function bigint(s: Sink, v: bigint): void {
  if (v >= -0x80000000n && v < 0x100000000n) return int(s, Number(v));
  s.ensure(9);
  if (v > 0n) {
    s.buf[s.pos] = 0xcf; // uint 64
    s.view.setBigUint64(s.pos + 1, v);
  } else {
    s.buf[s.pos] = 0xd3; // int 64
    s.view.setBigInt64(s.pos + 1, v);
  }
  s.pos += 9;
}

function strHeadSize(n: number): number {
  return n < 32 ? 1 : n < 0x100 ? 2 : n < 0x10000 ? 3 : 5;
}

/** The caller has made room. */
function strHead(s: Sink, n: number): void {
  const p = s.pos;
  if (n < 32) {
    s.buf[p] = 0xa0 | n; // fixstr 101xxxxx 0xa0-0xbf
    s.pos = p + 1;
  } else {
    lengthHead(s, n, 0xd9); // str 8 0xd9, str 16 0xda, str 32 0xdb
  }
}

/**
 * Str and bin headers beyond the fix forms share a layout: `head8` with a 1-byte length, then
 * `head8 + 1` with 2 bytes and `head8 + 2` with 4. The caller has made room.
 */
function lengthHead(s: Sink, n: number, head8: number): void {
  const p = s.pos;
  if (n < 0x100) {
    s.buf[p] = head8;
    s.buf[p + 1] = n;
    s.pos = p + 2;
  } else if (n < 0x10000) {
    s.buf[p] = head8 + 1;
    s.view.setUint16(p + 1, n);
    s.pos = p + 3;
  } else {
    s.buf[p] = head8 + 2;
    s.view.setUint32(p + 1, n);
    s.pos = p + 5;
  }
}

/** Array and map headers share a layout: a fix form below 16, then a 16-bit and a 32-bit form. */
function collectionHead(s: Sink, n: number, fix: number, head16: number): void {
  s.ensure(5);
  const p = s.pos;
  if (n < 16) {
    s.buf[p] = fix | n;
    s.pos = p + 1;
  } else if (n < 0x10000) {
    s.buf[p] = head16;
    s.view.setUint16(p + 1, n);
    s.pos = p + 3;
  } else {
    s.buf[p] = head16 + 1;
    s.view.setUint32(p + 1, n);
    s.pos = p + 5;
  }
}

const keySink = new Sink(64);

/** MessagePack, as the compiled writer sees it. */
export const msgpackWire: Wire = {
  nil(s) {
    s.ensure(1);
    s.buf[s.pos++] = 0xc0; // nil
  },
  bool(s, v) {
    s.ensure(1);
    s.buf[s.pos++] = v ? 0xc3 : 0xc2; // true / false
  },
  int,
  bigint,
  float32(s, v) {
    s.ensure(5);
    s.buf[s.pos] = 0xca; // float 32
    s.view.setFloat32(s.pos + 1, v);
    s.pos += 5;
  },
  float64(s, v) {
    s.ensure(9);
    s.buf[s.pos] = 0xcb; // float 64
    s.view.setFloat64(s.pos + 1, v);
    s.pos += 9;
  },
  string(s, v) {
    writeUtf8(s, v, strHeadSize, strHead);
  },
  bytes(s, v) {
    const n = v.length;
    s.ensure(5 + n);
    lengthHead(s, n, 0xc4); // bin 8 0xc4, bin 16 0xc5, bin 32 0xc6
    s.buf.set(v, s.pos);
    s.pos += n;
  },
  arrayHead(s, n) {
    collectionHead(s, n, 0x90, 0xdc); // fixarray 1001xxxx 0x90-0x9f, array 16 0xdc, array 32 0xdd
  },
  mapHead(s, n) {
    collectionHead(s, n, 0x80, 0xde); // fixmap 1000xxxx 0x80-0x8f, map 16 0xde, map 32 0xdf
  },
  encodeKey(key) {
    return preEncode(key, strHeadSize, strHead, keySink);
  },
};
