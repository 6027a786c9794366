// Run by spec/codecs/amplification.spec.ts in a child process with a small heap:
//   node --max-old-space-size=N --import tsx spec/support/amplification-child.ts <input> <bytes> <descriptor>
// Builds one input that is small on the wire and huge once read, warms the decoder up on a smaller
// one (a server has seen requests before), decodes it once and prints what came out, how long it
// took, and the heap in use before and after.
import { ReadError, t, type Type } from '../../index.ts';
import { cbor } from '../../codecs/cbor/index.ts';
import { json } from '../../codecs/json/index.ts';
import { msgpack } from '../../codecs/msgpack/index.ts';
import type { Codec } from '../../core/codec.ts';

/** The inputs: each fills `size` bytes with one tiny item, the most items the bytes can hold. */
export const INPUTS: Record<string, { codec: Codec; make: (size: number) => Uint8Array | string }> = {
  // CBOR indefinite-length array of empty byte strings: 9f 40 40 … ff
  'cbor-empty-bytes': { codec: cbor, make: (size) => filled(size, 0x40, [0x9f], [0xff]) },
  // CBOR indefinite-length array of empty maps: 9f a0 a0 … ff
  'cbor-empty-maps': { codec: cbor, make: (size) => filled(size, 0xa0, [0x9f], [0xff]) },
  // CBOR indefinite-length byte string of empty chunks: 5f 40 40 … ff
  'cbor-empty-chunks': { codec: cbor, make: (size) => filled(size, 0x40, [0x5f], [0xff]) },
  // MessagePack array 32 of empty maps: dd nnnnnnnn 80 80 …
  'msgpack-empty-maps': { codec: msgpack, make: (size) => filled(size, 0x80, [0xdd, ...uint32(size - 5)], []) },
  // MessagePack array 16 of 65,535 empty maps: dc ff ff 80 80 … (64 KiB whatever the size asked)
  'msgpack-array16': { codec: msgpack, make: () => filled(3 + 0xffff, 0x80, [0xdc, 0xff, 0xff], []) },
  // JSON [{},{},…]
  'json-empty-objects': { codec: json, make: (size) => `[${'{},'.repeat(Math.floor((size - 2) / 3)).slice(0, -1)}]` },
  // JSON ["","",…]: empty base64 strings, each a Uint8Array once read as bytes
  'json-empty-strings': { codec: json, make: (size) => `[${'"",'.repeat(Math.floor((size - 2) / 3)).slice(0, -1)}]` },
};

export const DESCRIPTORS: Record<string, Type> = {
  u64: t.u64(),
  object: t.object({ id: t.u64() }),
  bytes: t.bytes(),
  'array-of-bytes': t.array(t.bytes()),
  'array-of-objects': t.array(t.object({})),
};

function filled(size: number, byte: number, head: number[], tail: number[]): Uint8Array {
  const bytes = new Uint8Array(size).fill(byte);
  bytes.set(head, 0);
  bytes.set(tail, size - tail.length);
  return bytes;
}

function uint32(n: number): number[] {
  return [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
}

function decode(codec: Codec, type: Type, input: Uint8Array | string): string {
  try {
    const value = codec.decode(type, input);
    return Array.isArray(value) ? `value: ${value.length} elements` : `value: ${typeof value}`;
  } catch (e) {
    if (e instanceof ReadError) return e.code;
    throw e;
  }
}

if (process.argv[1]?.endsWith('amplification-child.ts')) {
  const [name, size, descriptor] = process.argv.slice(2);
  const { codec, make } = INPUTS[name!]!;
  const type = DESCRIPTORS[descriptor!]!;
  for (let i = 0; i < 3; i++) decode(codec, type, make(256 * 1024));
  const input = make(Number(size));
  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  // Run with --trace-gc, V8 prints each collection (heap in use before it) to stdout, in order with
  // these lines: the parent takes the largest between the two as the peak.
  process.stdout.write('decode-start\n');
  const start = performance.now();
  const outcome = decode(codec, type, input);
  const ms = performance.now() - start;
  const heapAfter = process.memoryUsage().heapUsed;
  const inputBytes = typeof input === 'string' ? input.length : input.byteLength;
  process.stdout.write(`decode-end ${JSON.stringify({ outcome, ms, heapBefore, heapAfter, inputBytes })}\n`);
}
