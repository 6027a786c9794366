import { Failure } from '../../core/errors/failure.ts';
import { Sink } from './sink.ts';

/**
 * The primitives one binary format writes: what differs between MessagePack and CBOR. The
 * compiled writer decides per descriptor which one to call, so each field gets its own wire type.
 */
export interface Wire {
  nil(s: Sink): void;
  bool(s: Sink, v: boolean): void;
  /** A safe integer, in the smallest encoding that holds it exactly. */
  int(s: Sink, v: number): void;
  /** An integer within -2^63 .. 2^64-1, in the smallest encoding that holds it exactly. */
  bigint(s: Sink, v: bigint): void;
  float32(s: Sink, v: number): void;
  float64(s: Sink, v: number): void;
  string(s: Sink, v: string): void;
  bytes(s: Sink, v: Uint8Array): void;
  /** A point in time, milliseconds since the epoch (an integer a `Date` holds): the format's timestamp. */
  timestamp(s: Sink, ms: number): void;
  arrayHead(s: Sink, length: number): void;
  mapHead(s: Sink, size: number): void;
  /** A string as `string()` writes it, encoded once ahead of time (object keys). */
  encodeKey(key: string): Uint8Array;
  /** The same primitives for generated writers, which keep the position in a local. */
  readonly at: WireAt;
}

/**
 * Position-passing forms of the primitives: each writes at `p` in `s.buf` and returns the position
 * after what it wrote. The caller has made room, and `s.pos` is left alone.
 */
export interface WireAt {
  /** The single bytes of `null`, `false` and `true`. */
  readonly nil: number;
  readonly false: number;
  readonly true: number;
  int(s: Sink, p: number, v: number): number;
  bigint(s: Sink, p: number, v: bigint): number;
  float32(s: Sink, p: number, v: number): number;
  float64(s: Sink, p: number, v: number): number;
  /** Needs room for `MAX_HEAD + 3 * v.length` bytes. */
  string(s: Sink, p: number, v: string): number;
  /** Needs room for `MAX_TIMESTAMP` bytes. */
  timestamp(s: Sink, p: number, ms: number): number;
  arrayHead(s: Sink, p: number, length: number): number;
  mapHead(s: Sink, p: number, size: number): number;
}

/** The most bytes a head takes in either format; a string takes at most this plus 3 bytes per UTF-16 unit. */
export const MAX_HEAD = 9;

/** The most bytes a timestamp takes in either format (MessagePack's timestamp 96: 3 + 12). */
export const MAX_TIMESTAMP = 15;

/**
 * A format's `Wire` from its position-passing primitives: each method makes room, writes at
 * `s.pos` and moves it on. `bytesHeadAt` writes the head of a byte string of `length` bytes, at
 * most `maxBytesLength` (a longer one is `limit_exceeded` before any room is made). Member keys are
 * encoded ahead of time by `at.string`, so they are the bytes a string value takes.
 */
export function wireOf(
  at: WireAt,
  bytesHeadAt: (s: Sink, p: number, length: number) => number,
  maxBytesLength = Infinity,
): Wire {
  return {
    nil(s) {
      s.ensure(1);
      s.buf[s.pos++] = at.nil;
    },
    bool(s, v) {
      s.ensure(1);
      s.buf[s.pos++] = v ? at.true : at.false;
    },
    int(s, v) {
      s.ensure(MAX_HEAD);
      s.pos = at.int(s, s.pos, v);
    },
    bigint(s, v) {
      s.ensure(MAX_HEAD);
      s.pos = at.bigint(s, s.pos, v);
    },
    float32(s, v) {
      s.ensure(5);
      s.pos = at.float32(s, s.pos, v);
    },
    float64(s, v) {
      s.ensure(9);
      s.pos = at.float64(s, s.pos, v);
    },
    string(s, v) {
      s.ensure(MAX_HEAD + 3 * v.length);
      s.pos = at.string(s, s.pos, v);
    },
    bytes(s, v) {
      if (v.length > maxBytesLength)
        throw new Failure(
          'limit_exceeded',
          `cannot write ${v.length} bytes: the format's byte strings hold ${maxBytesLength} at most`,
        );
      s.ensure(MAX_HEAD + v.length);
      const p = bytesHeadAt(s, s.pos, v.length);
      s.buf.set(v, p);
      s.pos = p + v.length;
    },
    timestamp(s, ms) {
      s.ensure(MAX_TIMESTAMP);
      s.pos = at.timestamp(s, s.pos, ms);
    },
    arrayHead(s, n) {
      s.ensure(MAX_HEAD);
      s.pos = at.arrayHead(s, s.pos, n);
    },
    mapHead(s, n) {
      s.ensure(MAX_HEAD);
      s.pos = at.mapHead(s, s.pos, n);
    },
    encodeKey(key) {
      const s = new Sink(MAX_HEAD + 3 * key.length);
      return s.buf.slice(0, at.string(s, 0, key));
    },
    at,
  };
}
