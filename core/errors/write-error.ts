import { Failure } from './failure.ts';
import { PathError, fromFailure } from './path-error.ts';

/**
 * A value does not fit its descriptor and cannot be written (a string in an `i32` field, `NaN`,
 * a missing required member): `code` says why, `path` says where.
 */
export class WriteError extends PathError {
  static override readonly brand = Symbol.for('lacquer.WriteError');
  override name = 'WriteError';

  /** Converts an internal failure thrown by a compiled writer. */
  static from(f: Failure): WriteError {
    return new WriteError(...fromFailure(f));
  }
}

/** Turns an internal failure into a `WriteError`; anything else is returned unchanged. */
export function asWriteError(error: unknown): unknown {
  return error instanceof Failure ? WriteError.from(error) : error;
}
