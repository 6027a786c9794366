import { Failure } from './failure.ts';
import { PathError, fromFailure } from './path-error.ts';

/** Input could not be read: `code` says why, `path` (a JSON Pointer) says where. */
export class ReadError extends PathError {
  static override readonly brand = Symbol.for('lacquer.ReadError');
  override name = 'ReadError';

  /** Converts an internal failure thrown by a compiled reader. */
  static from(f: Failure): ReadError {
    return new ReadError(...fromFailure(f));
  }
}

/** Turns an internal failure into a `ReadError`; anything else is returned unchanged. */
export function asReadError(error: unknown): unknown {
  return error instanceof Failure ? ReadError.from(error) : error;
}

/**
 * What a codec's `decode` throws for anything that went wrong: internal failures as `ReadError`s,
 * and a stack exhausted by deep input as `limit_exceeded` (parsers bound their recursion by
 * `maxDepth`, but a huge `maxDepth` can still exhaust the stack).
 */
export function asDecodeError(error: unknown): unknown {
  if (error instanceof RangeError) return new ReadError('limit_exceeded', '', 'input nested too deeply to read');
  return asReadError(error);
}

/** Refuses an input of `size` bytes over `maxBytes` before anything of it is read. */
export function checkInputSize(size: number, maxBytes: number): void {
  if (size > maxBytes) throw new Failure('limit_exceeded', `input of ${size} bytes is over maxBytes (${maxBytes})`);
}
