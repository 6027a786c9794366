import type { Opts } from '../../core/options.ts';
import type { Infer, InferInput, Type } from '../../core/descriptors/type.ts';
import type { Codec, ItemScanner, ParsedMessage } from '../../core/codec.ts';
import { binaryDecoder, type TreeParser } from './decode.ts';
import type { ReadWire } from './direct-reader.ts';
import { binaryEncoder } from './encode.ts';
import { BinaryItemScanner, type HeadReader } from './item-scanner.ts';
import type { Wire } from './wire.ts';
import { Sink } from './sink.ts';

/** A codec whose `encode` gives bytes; it takes the value as a writer does (`InferInput`). */
export interface BinaryCodec extends Codec {
  encode<T extends Type>(type: T, value: InferInput<T>, opts?: Opts): Uint8Array;
}

/** What one binary format brings: its names, how it writes, how it parses, how it reads directly. */
export interface BinaryFormat {
  readonly name: string;
  /** For messages: `MessagePack`, `CBOR`. */
  readonly title: string;
  readonly contentTypes: readonly string[];
  readonly wire: Wire;
  readonly parse: TreeParser;
  readonly readWire: ReadWire;
  /** Streams: the sequence's media type, the value ending its items, and how heads are read. */
  readonly sequence: { readonly type: string; readonly end: Uint8Array; readonly head: HeadReader };
}

/** Builds a binary codec from its format: the writers, parsers and read pass are shared. */
export function binaryCodec(format: BinaryFormat): BinaryCodec {
  const encode = binaryEncoder(format.name, format.wire);
  const decode = binaryDecoder(format, { wire: format.readWire, encodeKey: format.wire.encodeKey });
  const { sequence } = format;
  return {
    name: format.name,
    contentTypes: format.contentTypes,
    encode: <T extends Type>(type: T, value: InferInput<T>, opts?: Opts): Uint8Array =>
      encode.encode(type, value, opts),
    decode: <T extends Type>(type: T, input: Uint8Array | string, opts?: Opts): Infer<T> =>
      decode.decode(type, input, opts) as Infer<T>,
    prepare: (type: Type, opts?: Opts): void => {
      encode.prepare(type, opts);
      decode.prepare(type, opts);
    },
    sequenceType: sequence.type,
    // A copy per codec: no caller can change the marker another one compares with.
    sequenceEnd: sequence.end.slice(),
    itemScanner: (maxDepth: number): ItemScanner => new BinaryItemScanner(sequence.head, format.title, maxDepth),
    parseMessage: (input: Uint8Array | string, opts?: Opts): ParsedMessage => ({
      tree: decode.parse(input, opts),
      source: 'binary',
    }),
    joinArray: (encoded: readonly (Uint8Array | string)[]): Uint8Array => joinArray(format.wire, encoded),
  };
}

/** The array of values encoded already: its head, then their bytes. */
function joinArray(wire: Wire, encoded: readonly (Uint8Array | string)[]): Uint8Array {
  const sink = new Sink();
  wire.arrayHead(sink, encoded.length);
  for (const item of encoded) {
    if (!(item instanceof Uint8Array)) throw new TypeError('joinArray(): the items of a binary codec are bytes');
    sink.raw(item);
  }
  return sink.buf.slice(0, sink.pos);
}
