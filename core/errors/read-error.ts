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
