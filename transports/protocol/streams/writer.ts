import type { Codec } from '../../../core/codec.ts';
import type { InferInput, Type } from '../../../core/descriptors/type.ts';
import type { Opts } from '../../../core/options.ts';
import type { ProblemDocument } from '../problem.ts';

/**
 * Turns a stream's parts into the bytes of one media type, each ready to be written as it is: a
 * new array, or a view of a chunk shared with other frames whose bytes no later call overwrites
 * (so never transfer its buffer). One writer serves any number of streams at once: it keeps no
 * state of its own.
 */
export interface SequenceWriter<T extends Type> {
  /** The media type written: the answer's `Content-Type`. */
  readonly mediaType: string;
  /**
   * One item, encoded by the codec with the item's descriptor; `id` is its SSE event `id` (other
   * media types have none and ignore it). Throws `WriteError` when the value does not fit the
   * descriptor, or its text cannot be framed (a line break in an item's text, in an SSE `id`).
   */
  item(value: InferInput<T>, id?: string): Uint8Array;
  /** The clean end: the last bytes of a stream that ended well. */
  end(): Uint8Array;
  /** The error that ends a stream: its problem document, as the media type's codec writes problems. */
  error(problem: ProblemDocument): Uint8Array;
  /** SSE: a comment line, which keeps an idle connection open and that readers ignore; `undefined` for the other media types, which have none. */
  heartbeat(): Uint8Array | undefined;
}

/** What each framing builds a writer from. */
export interface WriterParts<T extends Type> {
  readonly codec: Codec;
  readonly type: T;
  readonly opts: Opts | undefined;
}
