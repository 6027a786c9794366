import { asReadError } from '../errors/read-error.ts';
import { resolveReadOptions, type ReadOptions, type ResolvedReadOptions } from '../options.ts';
import type { Type } from '../types/type.ts';
import { canGenerateCode } from '../util/codegen.ts';
import { compileReader } from './compile-reader.ts';
import type { TreeSource, Reader, ReaderContext } from './context.ts';
import { generateReader } from './generate-reader.ts';

/** A descriptor's compiled readers for one set of options. */
export interface Readers {
  /** Generated code where the platform allows it, falling back per value to the closures. */
  readonly read: Reader;
  /**
   * The closures alone, which take any tree. The generated code for `json` expects `JSON.parse`
   * output; the JSON codec's exact parser's trees, which hold `RawNumber`s, go here.
   */
  readonly closures: Reader;
}

const cache = new WeakMap<Type, Map<string, Readers>>();

/** The compiled readers of `type` for these options, compiled on first use and kept with the descriptor. */
export function readersFor(type: Type, options: ResolvedReadOptions, source: TreeSource): Readers {
  const key = `${+options.errorOnMissingKeys}${+options.errorOnUnknownKeys}${source}${options.maxDepth}`;
  let readers = cache.get(type);
  if (readers === undefined) cache.set(type, (readers = new Map()));
  let compiled = readers.get(key);
  if (compiled === undefined) readers.set(key, (compiled = compile(type, { ...options, source })));
  return compiled;
}

function compile(type: Type, ctx: ReaderContext): Readers {
  const closures = compileReader(type, ctx);
  if (!canGenerateCode()) return { read: closures, closures };
  const fast = generateReader(type, ctx);
  const read: Reader = (input) => {
    try {
      return fast(input);
    } catch {
      // The fast path bailed or met bad input: the closure reader gives the value or the exact error.
      return closures(input);
    }
  };
  return { read, closures };
}

interface Prepared extends Readers {
  readonly type: Type;
  readonly errorOnMissingKeys: boolean | undefined;
  readonly errorOnUnknownKeys: boolean | undefined;
  readonly maxDepth: number | undefined;
  readonly maxBytes: number | undefined;
  readonly source: TreeSource;
  readonly options: ResolvedReadOptions;
}

const lastPrepared = new WeakMap<Type, Prepared>();
/** The very last combination, whatever its descriptor: a codec called in a loop skips the WeakMap too. */
let latest: Prepared | undefined;

function sameCall(p: Prepared | undefined, type: Type, opts: ReadOptions | undefined, source: TreeSource): p is Prepared {
  return (
    p !== undefined && p.type === type && p.source === source && p.errorOnMissingKeys === opts?.errorOnMissingKeys &&
    p.errorOnUnknownKeys === opts?.errorOnUnknownKeys && p.maxDepth === opts?.maxDepth && p.maxBytes === opts?.maxBytes
  );
}

/**
 * The reader and resolved options for one decode call. The last combination per descriptor is
 * remembered (compared field by field, so a mutated options object is never served stale): a
 * codec called again with the same options pays a few comparisons, not a lookup by key.
 */
export function prepareRead(type: Type, opts: ReadOptions | undefined, source: TreeSource): Prepared {
  if (sameCall(latest, type, opts, source)) return latest;
  let prepared = lastPrepared.get(type);
  if (!sameCall(prepared, type, opts, source)) {
    const options = resolveReadOptions(opts);
    prepared = {
      type,
      errorOnMissingKeys: opts?.errorOnMissingKeys,
      errorOnUnknownKeys: opts?.errorOnUnknownKeys,
      maxDepth: opts?.maxDepth,
      maxBytes: opts?.maxBytes,
      source,
      options,
      ...readersFor(type, options, source),
    };
    lastPrepared.set(type, prepared);
  }
  latest = prepared;
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
