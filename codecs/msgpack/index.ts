import { binaryCodec, type BinaryCodec } from '../binary/codec.ts';
import { parseMsgpack } from './parse.ts';
import { msgpackReadWire } from './read-wire.ts';
import { msgpackWire } from './wire.ts';
import { msgpackHead } from './item-head.ts';

/** The MessagePack codec: `encode` gives bytes, `decode` takes bytes. */
export type MsgpackCodec = BinaryCodec;

/**
 * MessagePack with the descriptor choosing each field's wire type: `f32` as float 32, `f64` as
 * float 64, `i64`/`u64` as exact integers, `bytes` as bin. Reading follows the shared rules.
 */
export const msgpack: MsgpackCodec = binaryCodec({
  name: 'msgpack',
  title: 'MessagePack',
  contentTypes: ['application/msgpack', 'application/x-msgpack', 'application/vnd.msgpack'],
  wire: msgpackWire,
  parse: parseMsgpack,
  readWire: msgpackReadWire,
  sequence: {
    type: 'application/msgpack-seq',
    // fixext 1 of type 0 holding 0: `undefined` as msgpackr and notepack write it. lacquer writes no
    // extension but the timestamp (-1), and reads no other.
    end: Uint8Array.of(0xd4, 0x00, 0x00),
    head: msgpackHead,
  },
});
