import { asReadError } from '../errors/read-error.ts';
import { compiled, readersKey } from '../fast-path/compiled.ts';
import { fastPath } from '../fast-path/fast-path.ts';
import { resolveReadOptions, type ReadOptions, type ResolvedReadOptions } from '../options.ts';
import type { Type } from '../types/type.ts';
import { compileReader } from './compile-reader.ts';
import type { TreeSource, Reader } from './context.ts';
import { generateReader } from './generate-reader.ts';
import { restartBytesBudget } from './read-scalars.ts';

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

/** The compiled readers of `type` for these options, compiled on first use and kept with the descriptor. */
export function readersFor(type: Type, options: ResolvedReadOptions, source: TreeSource): Readers {
  return compiled(type, `read-${source} ${readersKey(options)}`, () => {
    const ctx = { ...options, source };
    const closures = compileReader(type, ctx);
    // After a bail the closures read the tree again from the start: so does the JSON byte budget.
    const fallback: Reader = source === 'json' ? (tree) => (restartBytesBudget(), closures(tree)) : closures;
    return { read: fastPath({ codec: 'read', type, generate: () => generateReader(type, ctx), fallback }), closures };
  });
}

/**
 * The read pass every codec shares: checks an already-parsed tree (objects, arrays, strings,
 * numbers, bigints, bytes) against `type` and returns the clean value, or throws `ReadError`.
 */
export function readTree<T extends Type>(type: T, tree: unknown, options: ReadOptions | undefined, source: TreeSource): T['~out'] {
  const { read } = readersFor(type, resolveReadOptions(options), source);
  try {
    return read(tree) as T['~out'];
  } catch (e) {
    throw asReadError(e);
  }
}
