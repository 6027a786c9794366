import type { Sink } from './sink.ts';

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
  arrayHead(s: Sink, length: number): void;
  mapHead(s: Sink, size: number): void;
  /** A string as `string()` writes it, encoded once ahead of time (object keys). */
  encodeKey(key: string): Uint8Array;
}
