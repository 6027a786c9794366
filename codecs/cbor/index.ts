import type { Opts } from '../../core/options.ts';
import type { Infer, Type } from '../../core/types/type.ts';
import { binaryDecoder } from '../binary/decode.ts';
import { binaryEncoder } from '../binary/encode.ts';
import type { Codec } from '../codec.ts';
import { parseCbor } from './decode.ts';
import { cborReadWire } from './read-wire.ts';
import { cborWire } from './wire.ts';

/** The CBOR codec: `encode` gives bytes, `decode` takes bytes. */
export interface CborCodec extends Codec {
  encode<T extends Type>(type: T, value: Infer<T>, opts?: Opts): Uint8Array;
}

const encode = binaryEncoder(cborWire);
const decode = binaryDecoder('CBOR', parseCbor, { wire: cborReadWire, encodeKey: (key) => cborWire.encodeKey(key) });

/**
 * CBOR (RFC 8949) with the descriptor choosing each field's wire type: `f32` as binary32, `f64`
 * as binary64, `i64`/`u64` as major type 0/1 integers, `bytes` as byte strings. Reading follows
 * the shared rules.
 */
export const cbor: CborCodec = {
  name: 'cbor',
  contentTypes: ['application/cbor'],

  encode<T extends Type>(type: T, value: Infer<T>, _opts?: Opts): Uint8Array {
    return encode(type, value);
  },

  decode<T extends Type>(type: T, input: Uint8Array | string, opts?: Opts): Infer<T> {
    return decode(type, input, opts) as Infer<T>;
  },
};
