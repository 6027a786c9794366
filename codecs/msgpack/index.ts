import type { Opts } from '../../core/options.ts';
import type { Infer, Type } from '../../core/types/type.ts';
import { binaryDecoder } from '../binary/decode.ts';
import { binaryEncoder } from '../binary/encode.ts';
import type { Codec } from '../codec.ts';
import { parseMsgpack } from './decode.ts';
import { msgpackReadWire } from './read-wire.ts';
import { msgpackWire } from './wire.ts';

/** The MessagePack codec: `encode` gives bytes, `decode` takes bytes. */
export interface MsgpackCodec extends Codec {
  encode<T extends Type>(type: T, value: Infer<T>, opts?: Opts): Uint8Array;
}

const encode = binaryEncoder(msgpackWire);
const decode = binaryDecoder('MessagePack', parseMsgpack, { wire: msgpackReadWire, encodeKey: (key) => msgpackWire.encodeKey(key) });

/**
 * MessagePack with the descriptor choosing each field's wire type: `f32` as float 32, `f64` as
 * float 64, `i64`/`u64` as exact integers, `bytes` as bin. Reading follows the shared rules.
 */
export const msgpack: MsgpackCodec = {
  name: 'msgpack',
  contentTypes: ['application/msgpack', 'application/x-msgpack', 'application/vnd.msgpack'],

  encode<T extends Type>(type: T, value: Infer<T>, _opts?: Opts): Uint8Array {
    return encode(type, value);
  },

  decode<T extends Type>(type: T, input: Uint8Array | string, opts?: Opts): Infer<T> {
    return decode(type, input, opts) as Infer<T>;
  },
};
