import type { Opts } from '../../core/options.ts';
import type { Infer, InferInput, Type } from '../../core/descriptors/type.ts';
import type { Codec, ParsedMessage } from '../../core/codec.ts';
import { decodeJson, parseJsonMessage, prepareJsonDecode } from './decode.ts';
import { jsonWriterFor } from './writers.ts';

/**
 * The JSON codec: `encode` gives a string, `decode` takes text or UTF-8 bytes. `encode` takes the
 * value as a writer does (`InferInput`): members with `.default()` may be left out.
 */
export interface JsonCodec extends Codec {
  encode<T extends Type>(type: T, value: InferInput<T>, opts?: Opts): string;
}

export const json: JsonCodec = {
  name: 'json',
  contentTypes: ['application/json'],
  // JSON Lines: each item one line of compact JSON, which never holds a line break.
  sequenceType: 'application/jsonl',

  encode<T extends Type>(type: T, value: InferInput<T>, opts?: Opts): string {
    return jsonWriterFor(type, opts)(value);
  },

  decode<T extends Type>(type: T, input: Uint8Array | string, opts?: Opts): Infer<T> {
    return decodeJson(type, input, opts) as Infer<T>;
  },

  prepare(type: Type, opts?: Opts): void {
    jsonWriterFor(type, opts);
    prepareJsonDecode(type, opts);
  },

  parseMessage(input: Uint8Array | string, opts?: Opts): ParsedMessage {
    return parseJsonMessage(input, opts);
  },

  joinArray(encoded: readonly (Uint8Array | string)[]): string {
    // This codec's items are strings.
    return `[${encoded.join(',')}]`;
  },
};
