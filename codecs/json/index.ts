import { Failure } from '../../core/errors/failure.ts';
import { ReadError, asReadError } from '../../core/errors/read-error.ts';
import { asWriteError } from '../../core/errors/write-error.ts';
import type { Opts } from '../../core/options.ts';
import { NeedsExactNumbers } from '../../core/read/read-scalars.ts';
import { prepareRead } from '../../core/read/read.ts';
import type { Infer, Type } from '../../core/types/type.ts';
import { canGenerateCode } from '../../core/util/codegen.ts';
import type { Codec } from '../codec.ts';
import { compileJsonWriter, type JsonWriter } from './compile-writer.ts';
import { generateJsonWriter } from './generate-writer.ts';
import { parseExact } from './parse-exact.ts';

/** The JSON codec: `encode` gives a string, `decode` takes text or UTF-8 bytes. */
export interface JsonCodec extends Codec {
  encode<T extends Type>(type: T, value: Infer<T>, opts?: Opts): string;
}

const writers = new WeakMap<Type, [JsonWriter | undefined, JsonWriter | undefined]>();
const utf8 = new TextDecoder('utf-8', { fatal: true });

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

function toText(input: Uint8Array | string, maxBytes: number): string {
  const size = typeof input === 'string' ? input.length : input.byteLength;
  if (size > maxBytes) throw new Failure('limit_exceeded', `input of ${size} bytes is over maxBytes (${maxBytes})`);
  if (typeof input === 'string') return input;
  try {
    return utf8.decode(input);
  } catch {
    throw new Failure('syntax_error', 'invalid JSON: the bytes are not valid UTF-8');
  }
}

function parseFast(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Failure('syntax_error', `invalid JSON: ${(e as Error).message}`);
  }
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
    const { options, read } = prepareRead(type, opts, 'json');
    try {
      const text = toText(input, options.maxBytes);
      try {
        return read(parseFast(text)) as Infer<T>;
      } catch (e) {
        // A 64-bit member met an integer beyond 2^53, whose digits JSON.parse may have lost.
        if (!(e instanceof NeedsExactNumbers)) throw e;
        return read(parseExact(text, options.maxDepth)) as Infer<T>;
      }
    } catch (e) {
      if (e instanceof RangeError) throw new ReadError('limit_exceeded', '', 'input nested too deeply to read');
      throw asReadError(e);
    }
  },
};
