import { asReadError } from '../errors/read-error.ts';
import { resolveReadOptions, type ReadOptions, type ResolvedReadOptions } from '../options.ts';
import type { Type } from '../types/type.ts';
import { compileReader } from './compile-reader.ts';
import type { BytesForm, Reader } from './context.ts';

const cache = new WeakMap<Type, Map<string, Reader>>();

/** The compiled reader of `type` for these options, compiled on first use and kept with the descriptor. */
export function readerFor(type: Type, options: ResolvedReadOptions, bytes: BytesForm): Reader {
  const key = `${+options.errorOnMissingKeys}${+options.errorOnUnknownKeys}${bytes}${options.maxDepth}`;
  let readers = cache.get(type);
  if (readers === undefined) cache.set(type, (readers = new Map()));
  let reader = readers.get(key);
  if (reader === undefined) readers.set(key, (reader = compileReader(type, { ...options, bytes })));
  return reader;
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
