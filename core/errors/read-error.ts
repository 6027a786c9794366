import type { ErrorCode } from './codes.ts';
import { Failure, type CollectedError } from './failure.ts';
import { PathError, describeFailure, fromFailure } from './path-error.ts';

/**
 * The most problems `ReadError.errors` lists: past it, reading stops looking, so a hostile input
 * with a million bad elements costs no more than one with a hundred.
 */
export const MAX_READ_ERRORS = 100;

/** One problem of an input, as `ReadError.errors` lists it (and a 400 problem document's `errors`). */
export interface ReadErrorEntry {
  readonly code: ErrorCode;
  /** RFC 6901 JSON Pointer to the offending value or key. */
  readonly path: string;
  readonly message: string;
}

/** Input could not be read: `code` says why, `path` (a JSON Pointer) says where. */
export class ReadError extends PathError {
  static override readonly brand = Symbol.for('lacquer.ReadError');
  override name = 'ReadError';
  /**
   * Every problem found in the input, in document order, at most {@link MAX_READ_ERRORS}; the
   * first is this error itself (same code, path and message). Reading stops at the first problem;
   * only once it has failed is the input read again to list the others. A problem found while
   * parsing (a syntax error, a limit) is the only one listed.
   */
  readonly errors: readonly ReadErrorEntry[];

  constructor(code: ErrorCode, path: string, message: string, key?: string) {
    super(code, path, message, key);
    this.errors = [{ code: this.code, path: this.path, message: this.message }];
  }

  /** Converts an internal failure thrown by a compiled reader, with the problems collected after it. */
  static from(f: Failure): ReadError {
    const error = new ReadError(...fromFailure(f));
    if (f.collected !== undefined) {
      const errors = allErrorsOf(f).map(({ code, path, message }) => ({ code, path, message }));
      (error as { errors: readonly ReadErrorEntry[] }).errors = errors;
    }
    return error;
  }
}

/**
 * Every problem a failure of the read pass stands for, with its path as segments: the failure
 * itself first (as its `ReadError` shows it), then what the collecting pass found after it, at
 * most `MAX_READ_ERRORS` in all.
 */
export function allErrorsOf(f: Failure): CollectedError[] {
  const segments = f.segments.slice().reverse();
  const [code, path, message] = describeFailure(f.code, f.detail, f.key, segments);
  const first: CollectedError = { code, path: path.toWellFormed(), message: message.toWellFormed(), segments };
  const collected = f.collected ?? [];
  // The collecting pass finds the same problem first; this only guards that.
  const same = (e: CollectedError) => e.code === first.code && e.path === first.path && e.message === first.message;
  const rest = collected.length > 0 && same(collected[0]!) ? collected.slice(1) : collected;
  return [first, ...rest].slice(0, MAX_READ_ERRORS);
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
