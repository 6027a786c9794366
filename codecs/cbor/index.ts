import { binaryCodec, type BinaryCodec } from '../binary/codec.ts';
import { parseCbor } from './parse.ts';
import { cborReadWire } from './read-wire.ts';
import { cborWire } from './wire.ts';
import { cborHead } from './item-head.ts';

/** The CBOR codec: `encode` gives bytes, `decode` takes bytes. */
export type CborCodec = BinaryCodec;

/**
 * CBOR (RFC 8949) with the descriptor choosing each field's wire type: `f32` as binary32, `f64`
 * as binary64, `i64`/`u64` as major type 0/1 integers, `bytes` as byte strings. Reading follows
 * the shared rules.
 */
export const cbor: CborCodec = binaryCodec({
  name: 'cbor',
  title: 'CBOR',
  contentTypes: ['application/cbor'],
  wire: cborWire,
  parse: parseCbor,
  readWire: cborReadWire,
  sequence: {
    type: 'application/cbor-seq',
    // `undefined` (simple value 23), which no item is: a stream's items are never optional.
    end: Uint8Array.of(0xf7),
    head: cborHead,
  },
});
