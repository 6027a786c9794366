import { asReadError } from '../errors/read-error.ts';
import { compiled, readersKey } from '../compiled.ts';
import { fastPath } from '../codegen/fast-path.ts';
import { resolveReadOptions, type ReadOptions, type ResolvedReadOptions } from '../options.ts';
import type { Type } from '../descriptors/type.ts';
import { closuresWithAllErrors } from './all-errors.ts';
import type { TreeSource, Reader, ReaderContext } from './context.ts';
import { generateReader } from './generate-reader.ts';
import { NeedsExactNumbers, restartBytesBudget } from './read-scalars.ts';

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

/**
 * The compiled readers of `type` for these options, compiled on first use and kept with the
 * descriptor. Both fail with every error of the input (`Failure.collected`): the closures, which
 * answer every input the generated code bails on, read a failing tree again to collect them.
 */
export function readersFor(type: Type, options: ResolvedReadOptions, source: TreeSource): Readers {
  return compiled(type, `read-${source} ${readersKey(options)}`, () => {
    const ctx: ReaderContext = { ...options, source };
    // After a bail, or a failure, the closures read the tree again from the start: so does the JSON byte budget.
    const restart = source === 'json' ? restartBytesBudget : undefined;
    const closures = closuresWithAllErrors(type, ctx, restart);
    const fallback: Reader = restart === undefined ? closures : (tree) => (restart(), closures(tree));
    return { read: fastPath({ codec: 'read', type, generate: () => generateReader(type, ctx), fallback }), closures };
  });
}

/**
 * The read pass every codec shares: checks an already-parsed tree (objects, arrays, strings,
 * numbers, bigints, bytes, timestamps) against `type` and returns the clean value, or throws
 * `ReadError` listing every error.
 */
export function readTree<T extends Type>(
  type: T,
  tree: unknown,
  options: ReadOptions | undefined,
  source: TreeSource,
): T['~out'] {
  const { read } = readersFor(type, resolveReadOptions(options), source);
  try {
    return read(tree) as T['~out'];
  } catch (e) {
    throw asReadError(e);
  }
}

/** Reads one part of a parsed message; see {@link partReader}. */
export type PartReader<T> = (part: unknown, exactPart: (() => unknown) | undefined) => T;

/**
 * Compiles, once, the reading of parts of parsed messages (a JSON-RPC call's `params`) as `type`,
 * as {@link readTree} reads: `part` from `JSON.parse` or a binary parser. When 64-bit members meet a
 * JSON number whose digits `JSON.parse` may have lost, `exactPart()` gives the same part from the
 * exact parser, and that is read instead. Throws `ReadError`.
 */
export function partReader<T extends Type>(
  type: T,
  options: ReadOptions | undefined,
  source: TreeSource,
): PartReader<T['~out']> {
  const readers = readersFor(type, resolveReadOptions(options), source);
  return (part, exactPart) => {
    try {
      return readers.read(part) as T['~out'];
    } catch (e) {
      if (!(e instanceof NeedsExactNumbers) || exactPart === undefined) throw asReadError(e);
    }
    try {
      return readers.closures(exactPart()) as T['~out'];
    } catch (e) {
      throw asReadError(e);
    }
  };
}
