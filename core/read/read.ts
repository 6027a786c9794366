import { asReadError } from '../errors/read-error.ts';
import { resolveReadOptions, type ReadOptions, type ResolvedReadOptions } from '../options.ts';
import type { Type } from '../types/type.ts';
import { canGenerateCode } from '../util/codegen.ts';
import { compileReader } from './compile-reader.ts';
import type { TreeSource, Reader, ReaderContext } from './context.ts';
import { generateReader } from './generate-reader.ts';

const cache = new WeakMap<Type, Map<string, Reader>>();

/** The compiled reader of `type` for these options, compiled on first use and kept with the descriptor. */
export function readerFor(type: Type, options: ResolvedReadOptions, source: TreeSource): Reader {
  const key = `${+options.errorOnMissingKeys}${+options.errorOnUnknownKeys}${source}${options.maxDepth}`;
  let readers = cache.get(type);
  if (readers === undefined) cache.set(type, (readers = new Map()));
  let reader = readers.get(key);
  if (reader === undefined) readers.set(key, (reader = compile(type, { ...options, source })));
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

interface Prepared {
  readonly errorOnMissingKeys: boolean | undefined;
  readonly errorOnUnknownKeys: boolean | undefined;
  readonly maxDepth: number | undefined;
  readonly maxBytes: number | undefined;
  readonly source: TreeSource;
  readonly options: ResolvedReadOptions;
  readonly read: Reader;
}

const lastPrepared = new WeakMap<Type, Prepared>();

/**
 * The reader and resolved options for one decode call. The last combination per descriptor is
 * remembered (compared field by field, so a mutated options object is never served stale): a
 * codec called again with the same options pays four comparisons, not a lookup by key.
 */
export function prepareRead(type: Type, opts: ReadOptions | undefined, source: TreeSource): Prepared {
  const last = lastPrepared.get(type);
  if (
    last !== undefined && last.source === source && last.errorOnMissingKeys === opts?.errorOnMissingKeys &&
    last.errorOnUnknownKeys === opts?.errorOnUnknownKeys && last.maxDepth === opts?.maxDepth && last.maxBytes === opts?.maxBytes
  ) {
    return last;
  }
  const options = resolveReadOptions(opts);
  const prepared: Prepared = {
    errorOnMissingKeys: opts?.errorOnMissingKeys,
    errorOnUnknownKeys: opts?.errorOnUnknownKeys,
    maxDepth: opts?.maxDepth,
    maxBytes: opts?.maxBytes,
    source,
    options,
    read: readerFor(type, options, source),
  };
  lastPrepared.set(type, prepared);
  return prepared;
}

/**
 * The read pass every codec shares: checks an already-parsed tree (objects, arrays, strings,
 * numbers, bigints, bytes) against `type` and returns the clean value, or throws `ReadError`.
 */
export function readTree<T extends Type>(type: T, tree: unknown, options: ReadOptions | undefined, source: TreeSource): T['~out'] {
  const { read } = prepareRead(type, options, source);
  try {
    return read(tree) as T['~out'];
  } catch (e) {
    throw asReadError(e);
  }
}
