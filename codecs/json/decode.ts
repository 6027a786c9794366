import { Failure } from '../../core/errors/failure.ts';
import { asDecodeError, checkInputSize } from '../../core/errors/read-error.ts';
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_DEPTH, type ReadOptions } from '../../core/options.ts';
import { NeedsExactNumbers } from '../../core/read/read-scalars.ts';
import { prepareRead } from '../../core/read/read.ts';
import type { Type } from '../../core/types/type.ts';
import { canGenerateCode } from '../../core/util/codegen.ts';
import { generateDirectReader, type DirectReader } from './generate-direct-reader.ts';
import { parseExact } from './parse-exact.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Per descriptor and `maxDepth`: its direct reader, or `null` where it has none. */
const directReaders = new WeakMap<Type, Map<number, DirectReader | null>>();
let last: { type: Type | undefined; maxDepth: number; parse: DirectReader | null } = { type: undefined, maxDepth: 0, parse: null };

/**
 * `json.decode`. Three ways to the value, fastest first: the descriptor's direct reader (64-bit
 * descriptors, common shape); `JSON.parse` and the generated reader; and, when a 64-bit member
 * meets an integer beyond 2^53 whose digits `JSON.parse` may have lost, the exact parser and the
 * closure reader. Each later way gives the same value, and is the one that gives the errors.
 */
export function decodeJson(type: Type, input: Uint8Array | string, opts: ReadOptions | undefined): unknown {
  try {
    const text = toText(input, opts?.maxBytes ?? DEFAULT_MAX_BYTES);
    const direct = directReaderFor(type, opts?.maxDepth ?? DEFAULT_MAX_DEPTH);
    if (direct !== null) {
      try {
        return direct(text);
      } catch {
        // Not the common shape, or bad input: the general path gives the value or the exact error.
      }
    }
    return readText(type, text, opts);
  } catch (e) {
    throw asDecodeError(e);
  }
}

/** The general path: `JSON.parse` and the reader, or the exact parser when digits were lost. */
function readText(type: Type, text: string, opts: ReadOptions | undefined): unknown {
  const { options, read, closures } = prepareRead(type, opts, 'json');
  try {
    return read(parseFast(text));
  } catch (e) {
    if (!(e instanceof NeedsExactNumbers)) throw e;
    return closures(parseExact(text, options.maxDepth));
  }
}

/** The direct reader of `type`, compiled on first use; `null` where there is none. */
function directReaderFor(type: Type, maxDepth: number): DirectReader | null {
  // The last descriptor is remembered apart: a codec called again with it skips the lookups.
  if (type === last.type && maxDepth === last.maxDepth) return last.parse;
  let byDepth = directReaders.get(type);
  if (byDepth === undefined) directReaders.set(type, (byDepth = new Map()));
  let parse = byDepth.get(maxDepth);
  if (parse === undefined) {
    parse = canGenerateCode() ? (generateDirectReader(type, maxDepth) ?? null) : null;
    byDepth.set(maxDepth, parse);
  }
  last = { type, maxDepth, parse };
  return parse;
}

function toText(input: Uint8Array | string, maxBytes: number): string {
  checkInputSize(typeof input === 'string' ? input.length : input.byteLength, maxBytes);
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
