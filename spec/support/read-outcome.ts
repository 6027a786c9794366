// What reading a tree gives, on the generated path (the codecs' read pass) and on the closure path
// alone, for specs that hold the two together.
import { Failure } from '../../core/errors/failure.ts';
import { ReadError } from '../../index.ts';
import { asDecodeError } from '../../core/errors/read-error.ts';
import { resolveReadOptions, type ReadOptions } from '../../core/options.ts';
import { closuresWithAllErrors } from '../../core/read/all-errors.ts';
import type { TreeSource } from '../../core/read/context.ts';
import { readTree } from '../../core/read/read.ts';
import { NeedsExactNumbers } from '../../core/read/read-scalars.ts';
import type { Type } from '../../core/descriptors/type.ts';

/**
 * A value, or an error as its code, path and message, or (a JSON tree only) the request to read
 * the text again exactly, for a 64-bit member holding an integer beyond 2^53.
 */
export type Outcome =
  | { readonly value: unknown }
  | { readonly error: readonly [string, string, string] }
  | { readonly needsExactNumbers: true };

/** The read pass, generated code first (as every codec runs it). */
export function generatedOutcome(
  type: Type,
  tree: unknown,
  opts: ReadOptions | undefined,
  source: TreeSource,
): Outcome {
  try {
    return { value: readTree(type, tree, opts, source) };
  } catch (e) {
    if (e instanceof NeedsExactNumbers) return { needsExactNumbers: true };
    if (!(e instanceof ReadError)) throw e;
    return { error: [e.code, e.path, e.message] };
  }
}

/** The closure reader alone (collecting every error once it fails, as the codecs' fallback does). */
export function closureOutcome(type: Type, tree: unknown, opts: ReadOptions | undefined, source: TreeSource): Outcome {
  try {
    return { value: closuresWithAllErrors(type, { ...resolveReadOptions(opts), source })(tree) };
  } catch (e) {
    if (e instanceof NeedsExactNumbers) return { needsExactNumbers: true };
    if (!(e instanceof Failure)) throw e;
    const error = ReadError.from(e);
    return { error: [error.code, error.path, error.message] };
  }
}

/**
 * What a codec's `decode` gives, as data to compare: the value, or the error's code, path and
 * message (and, with `withEntries`, every entry of `errors`).
 */
export function decodeOutcome(read: () => unknown, withEntries = false): unknown {
  try {
    return { value: read() };
  } catch (e) {
    const error = asDecodeError(e);
    if (!(error instanceof ReadError)) throw e;
    const described = { code: error.code, path: error.path, message: error.message };
    return withEntries ? { ...described, errors: error.errors } : described;
  }
}
