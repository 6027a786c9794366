import { Failure } from '../../core/errors/failure.ts';
import { ReadError, asReadError } from '../../core/errors/read-error.ts';
import type { ReadOptions } from '../../core/options.ts';
import { prepareRead } from '../../core/read/read.ts';
import type { Type } from '../../core/types/type.ts';

/** Parses bytes of one format into a plain tree, failing with internal `Failure`s. */
export type TreeParser = (bytes: Uint8Array, maxDepth: number) => unknown;

/**
 * Builds a format's `decode`: size check, the format's parser, then the read pass every codec
 * shares (the same `missing_key`, `unknown_key`, `type_mismatch` and paths as JSON).
 */
export function binaryDecoder(format: string, parse: TreeParser): (type: Type, input: Uint8Array | string, opts?: ReadOptions) => unknown {
  return (type, input, opts) => {
    const { options, read } = prepareRead(type, opts, 'binary');
    try {
      if (!(input instanceof Uint8Array)) throw new Failure('syntax_error', `${format} input must be bytes (a Uint8Array), got ${typeof input}`);
      if (input.byteLength > options.maxBytes) {
        throw new Failure('limit_exceeded', `input of ${input.byteLength} bytes is over maxBytes (${options.maxBytes})`);
      }
      return read(parse(input, options.maxDepth));
    } catch (e) {
      // Parsers bound their recursion by maxDepth; a huge maxDepth can still exhaust the stack.
      if (e instanceof RangeError) throw new ReadError('limit_exceeded', '', 'input nested too deeply to read');
      throw asReadError(e);
    }
  };
}
