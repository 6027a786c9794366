import type { Opts } from '../../../core/options.ts';
import { ReadError, type ReadErrorEntry } from '../../../core/errors/read-error.ts';
import { describeLocation } from '../../../core/errors/json-pointer.ts';
import type { ProblemDocument } from '../problem.ts';

/** What a stream's reader finds: an item, the clean end, or the error that ended the stream. */
export type StreamEvent<T> =
  | { readonly kind: 'item'; readonly value: T /** SSE: the event's `id`, when it has one. */; readonly id?: string }
  | { readonly kind: 'end' }
  | { readonly kind: 'error'; readonly problem: ProblemDocument };

/** 1 MiB: the default of {@link SequenceReaderOptions.maxItemBytes}. */
export const DEFAULT_MAX_ITEM_BYTES = 1024 * 1024;

export interface SequenceReaderOptions {
  /** The reading options every item (and the error's problem document) is decoded with; `maxDepth` also bounds the framing of binary items. */
  readonly opts?: Opts;
  /**
   * The most bytes one item may take on the wire (a line of JSON Lines without its line feed, a
   * binary value, an SSE event's data). An unfinished item fails as soon as it passes the limit,
   * or as soon as a header announces more. Default {@link DEFAULT_MAX_ITEM_BYTES} (1 MiB).
   */
  readonly maxItemBytes?: number;
  /**
   * Whether the end of the input between two items is a clean end (and, in JSON Lines, a last
   * line without its line feed an item): for a request body, whose end the transport vouches for.
   * The end marker is accepted all the same. Default false: only the end marker ends a stream
   * cleanly, and an input ending without it is a cut.
   */
  readonly endAtEof?: boolean;
}

/**
 * An incremental reader of one stream. Give it the bytes as they arrive with `push`, then take
 * the events they complete with `next` until it returns `undefined`; once the input has ended,
 * call `finish` and take the last events the same way.
 */
export interface SequenceReader<T> {
  /**
   * Adds bytes of the stream. The reader may hold `chunk` itself until `next` has consumed it (so
   * it must not change meanwhile), and then copies only an unfinished item's bytes.
   */
  push(chunk: Uint8Array): void;
  /**
   * The next event the bytes so far complete, or `undefined` when it needs more (or the stream has
   * ended: nothing comes after `end` or `error`). Throws `ReadError` for a bad item (its path starts
   * with the item's index: `/2/title`), an item over `maxItemBytes`, malformed framing, bytes after
   * the end, and, after `finish`, for a stream cut before its end.
   */
  next(): StreamEvent<T> | undefined;
  /** Says the input has ended: `next` then gives what is left, and throws if the stream was cut. */
  finish(): void;
  /** Items read so far. */
  readonly items: number;
  /** The bytes pushed and not consumed yet (an unfinished item, what a chunk holds past it). */
  readonly buffered: number;
}

/** The input ended before the stream's end marker: never a clean end. */
export function cutError(items: number, midItem: boolean): ReadError {
  const where = midItem ? `inside item ${items}` : `after ${items} item(s)`;
  return new ReadError(
    'syntax_error',
    midItem ? `/${items}` : '',
    `the stream was cut: its input ended ${where}, before the end of the stream`,
  );
}

/** An item (or what should have been one) over `maxItemBytes`. */
export function itemTooLarge(index: number, limit: number): ReadError {
  return new ReadError('limit_exceeded', `/${index}`, `item ${index} of the stream is over maxItemBytes (${limit})`);
}

/** Bytes after a stream's end (its clean end, or its problem document): at the index after its `items`. */
export function afterEnd(items: number): ReadError {
  return new ReadError('syntax_error', `/${items}`, `bytes follow the end of the stream, after its ${items} items`);
}

/**
 * A `ReadError` of item `index` as the error of the whole stream: its path, and that of every
 * entry, starts with the index (`/title` becomes `/2/title`), and the messages say so.
 */
export function atItem(error: unknown, index: number): unknown {
  if (!(error instanceof ReadError)) return error;
  const prefix = `/${index}`;
  const message = relocated(error.message, error.path, error.key !== undefined, prefix);
  const out = new ReadError(error.code, prefix + error.path, message, error.key);
  const errors: ReadErrorEntry[] = (Array.isArray(error.errors) ? error.errors : []).map((e) => ({
    code: e.code,
    path: prefix + e.path,
    message: entryMessage(e, prefix),
  }));
  if (errors.length > 0) (out as { errors: readonly ReadErrorEntry[] }).errors = errors;
  return out;
}

/** An entry's message relocated: entries do not say whether they are key errors, so both forms are tried. */
function entryMessage(e: ReadErrorEntry, prefix: string): string {
  const asValue = relocated(e.message, e.path, false, prefix);
  return asValue !== e.message ? asValue : relocated(e.message, e.path, true, prefix);
}

/**
 * `message` with the place it names (` at /title`, ` at the root`, or, for a key error, the
 * object holding the key) moved under `prefix`; unchanged when it names none.
 */
function relocated(message: string, path: string, keyError: boolean, prefix: string): string {
  const pointer = keyError ? path.slice(0, Math.max(0, path.lastIndexOf('/'))) : path;
  const suffix = ` at ${describeLocation(pointer)}`;
  if (!message.endsWith(suffix)) return message;
  return `${message.slice(0, message.length - suffix.length)} at ${prefix}${pointer}`;
}
