import { asReadError } from '../errors/read-error.ts';
import { resolveReadOptions, type ReadOptions, type ResolvedReadOptions } from '../options.ts';
import type { Type } from '../types/type.ts';
import { canGenerateCode } from '../util/codegen.ts';
import { compileReader } from './compile-reader.ts';
import type { BytesForm, Reader, ReaderContext } from './context.ts';
import { generateReader } from './generate-reader.ts';

const cache = new WeakMap<Type, Map<string, Reader>>();

/** The compiled reader of `type` for these options, compiled on first use and kept with the descriptor. */
export function readerFor(type: Type, options: ResolvedReadOptions, bytes: BytesForm): Reader {
  const key = `${+options.errorOnMissingKeys}${+options.errorOnUnknownKeys}${bytes}${options.maxDepth}`;
  let readers = cache.get(type);
  if (readers === undefined) cache.set(type, (readers = new Map()));
  let reader = readers.get(key);
  if (reader === undefined) readers.set(key, (reader = compile(type, { ...options, bytes })));
  return reader;
}

/** Generated code where the platform allows it, falling back per value to the closures, which always work. */
function compile(type: Type, ctx: ReaderContext): Reader {
  const slow = compileReader(type, ctx);
  if (!canGenerateCode()) return slow;
  const fast = generateReader(type, ctx);
  return (input) => {
    try {
      return fast(input);
    } catch {
      // The fast path bailed or met bad input: the closure reader gives the value or the exact error.
      return slow(input);
    }
  };
}

/**
 * The read pass every codec shares: checks an already-parsed tree (objects, arrays, strings,
 * numbers, bigints, bytes) against `type` and returns the clean value, or throws `ReadError`.
 */
export function readTree<T extends Type>(type: T, tree: unknown, options: ReadOptions | undefined, bytes: BytesForm): T['~out'] {
  const reader = readerFor(type, resolveReadOptions(options), bytes);
  try {
    return reader(tree) as T['~out'];
  } catch (e) {
    throw asReadError(e);
  }
}
