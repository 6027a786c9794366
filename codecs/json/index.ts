import { asWriteError } from '../../core/errors/write-error.ts';
import type { Opts } from '../../core/options.ts';
import type { Infer, Type } from '../../core/types/type.ts';
import { canGenerateCode } from '../../core/util/codegen.ts';
import type { Codec } from '../codec.ts';
import { compileJsonWriter, type JsonWriter } from './compile-writer.ts';
import { decodeJson } from './decode.ts';
import { generateJsonWriter } from './generate-writer.ts';

/** The JSON codec: `encode` gives a string, `decode` takes text or UTF-8 bytes. */
export interface JsonCodec extends Codec {
  encode<T extends Type>(type: T, value: Infer<T>, opts?: Opts): string;
}

const writers = new WeakMap<Type, [JsonWriter | undefined, JsonWriter | undefined]>();

function writerFor(type: Type, pretty: boolean): JsonWriter {
  let pair = writers.get(type);
  if (pair === undefined) writers.set(type, (pair = [undefined, undefined]));
  const slot = pretty ? 1 : 0;
  return (pair[slot] ??= compileWriter(type, pretty));
}

/** Compact output gets generated code where the platform allows it; the closures always work. */
function compileWriter(type: Type, pretty: boolean): JsonWriter {
  const slow = compileJsonWriter(type, pretty);
  if (pretty || !canGenerateCode()) return slow;
  const fast = generateJsonWriter(type);
  return (value, indent) => {
    try {
      return fast(value);
    } catch {
      // The fast path bailed or met a bad value: the closure writer gives the text or the exact error.
      return slow(value, indent);
    }
  };
}

export const json: JsonCodec = {
  name: 'json',
  contentTypes: ['application/json'],

  encode<T extends Type>(type: T, value: Infer<T>, opts?: Opts): string {
    try {
      return writerFor(type, opts?.prettify === true)(value, '');
    } catch (e) {
      throw asWriteError(e);
    }
  },

  decode<T extends Type>(type: T, input: Uint8Array | string, opts?: Opts): Infer<T> {
    return decodeJson(type, input, opts) as Infer<T>;
  },
};
