// Every error at once. Reading fails fast: the first problem ends it. Once it has failed, the same
// tree is read again by the collecting readers (compiled with `ctx.collect`), whose containers
// keep the path they are at and record a member's failure instead of passing it on, then read the
// next member. Only the failure path pays for this; the collection stops at MAX_READ_ERRORS, or at
// a limit, so a hostile input costs no more than a hundred problems.
import { Failure, type CollectedError } from '../errors/failure.ts';
import { describeFailure } from '../errors/path-error.ts';
import { MAX_READ_ERRORS } from '../errors/read-error.ts';
import type { Reader } from './context.ts';

/** What one collecting pass has found so far, and the path of the container being read. */
interface Collection {
  readonly found: CollectedError[];
  /** Outermost segment first: containers push the key or index they read, and pop it after. */
  readonly path: (string | number)[];
}

/** Thrown through the readers to end the pass: the collection is full, or a limit was crossed. */
const STOP = Symbol('lacquer.stopCollecting');

/** The pass running now. Reading is synchronous; a pass started inside another restores it. */
let current: Collection | undefined;

/**
 * Reads `tree` with the collecting reader `read` and returns every problem it finds, in document
 * order, at most `MAX_READ_ERRORS`. Anything else thrown (the JSON codec's request for exact
 * numbers) passes through.
 */
export function collectErrors(read: Reader, tree: unknown): CollectedError[] {
  const outer = current;
  const collection: Collection = { found: [], path: [] };
  current = collection;
  try {
    try {
      read(tree);
    } catch (e) {
      record(e);
    }
  } catch (e) {
    // A stack exhausted by deep input (under a huge maxDepth) ends the list where it got to.
    if (e !== STOP && !(e instanceof RangeError)) throw e;
  } finally {
    current = outer;
  }
  return collection.found;
}

/**
 * Records a failure thrown at the current path (it may carry segments of its own, innermost
 * first, as a variant's discriminant does); ends the pass when the collection is full or the
 * failure is a crossed limit. Rethrows anything that is not a `Failure`.
 */
export function record(e: unknown): void {
  if (!(e instanceof Failure)) throw e;
  const c = current!;
  const segments = e.segments.length === 0 ? c.path.slice() : c.path.concat(e.segments.slice().reverse());
  const [code, path, message] = describeFailure(e.code, e.detail, e.key, segments);
  // As PathError shows them: a lone surrogate quoted from the input becomes U+FFFD.
  c.found.push({ code, path: path.toWellFormed(), message: message.toWellFormed(), segments });
  if (c.found.length >= MAX_READ_ERRORS || code === 'limit_exceeded') throw STOP;
}

/** Reads `x` (at `segment` of the container being read) with `read`; a failure is recorded and gives `undefined`. */
export function readAt(read: Reader, x: unknown, segment: string | number): unknown {
  const path = current!.path;
  path.push(segment);
  try {
    return read(x);
  } catch (e) {
    record(e);
    return undefined;
  } finally {
    path.pop();
  }
}

/** Records `failure` at `segment` of the container being read (a missing or unknown key). */
export function recordAt(failure: Failure, segment: string | number): void {
  const path = current!.path;
  path.push(segment);
  try {
    record(failure);
  } finally {
    path.pop();
  }
}

/**
 * `closures` (the fail-fast closure reader) with every error: when it fails, `collecting()` (the
 * collecting reader, compiled on first need) reads the tree again and the failure carries what it
 * found. `restart` runs before that second reading (the JSON byte-string budget starts over).
 */
export function withAllErrors(closures: Reader, collecting: () => Reader, restart?: () => void): Reader {
  return (tree) => {
    try {
      return closures(tree);
    } catch (e) {
      if (e instanceof Failure && e.collected === undefined) {
        restart?.();
        e.collected = collectErrors(collecting(), tree);
      }
      throw e;
    }
  };
}
