import type { Codec } from '../../core/codec.ts';
import type { Type } from '../../core/descriptors/type.ts';
import type { ReadOptions } from '../../core/options.ts';
import { ownSequenceCodec, ownSequenceReader } from '../protocol/streams/plain-framing.ts';
import type { StreamEvent } from '../protocol/streams/events.ts';
import { abortable, discard } from './abort.ts';
import { problemError } from './answer.ts';

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * The items of a stream answer, each decoded and validated with `item` as it arrives: an
 * `AsyncIterable` for `for await`. A problem ending the stream throws `HttpError`, a stream cut
 * before its end throws, and so do bytes after its clean end (a `ReadError`, read to the body's end); leaving the loop (or `signal` aborting) cancels the answer's body.
 */
export function streamResult(
  response: Response,
  item: Type,
  codecs: readonly Codec[],
  opts: ReadOptions,
  signal?: AbortSignal,
): AsyncIterable<unknown> {
  const contentType = response.headers.get('content-type') ?? '';
  const codec = ownSequenceCodec(contentType, codecs);
  if (response.body === null || codec === undefined) {
    discard(response);
    throw new TypeError(
      `lacquer/client: the answer is ${contentType || 'without a Content-Type'}, not a stream this client reads`,
    );
  }
  const sequence = ownSequenceReader(contentType, codec, item, { opts });
  const body = response.body.getReader();
  /** The stream's end, its error or a cut was read, or the loop was left: nothing more to read. */
  let finished = false;
  /** The body has given its last bytes. */
  let inputEnded = false;
  /** The clean end was read: the rest of the body must be nothing (bytes there throw, as the reader reads them). */
  let endRead = false;
  const stop = () => {
    finished = true;
    body.cancel().catch(() => {});
  };
  const iterator: AsyncIterator<unknown> = {
    async next() {
      if (finished) return DONE;
      let event: StreamEvent<unknown> | undefined;
      try {
        while ((event = sequence.next()) === undefined || event.kind === 'end') {
          if (event !== undefined) endRead = true;
          // After `finish`, the reader has given its end, its error, or thrown for a cut.
          if (inputEnded) {
            if (endRead) break;
            throw new Error('lacquer/client: the stream ended without its end');
          }
          const chunk = await abortable(body.read(), signal);
          if (chunk.done) {
            inputEnded = true;
            sequence.finish();
          } else sequence.push(chunk.value);
        }
      } catch (error) {
        stop();
        throw error;
      }
      if (event === undefined || event.kind === 'end') {
        stop();
        return DONE;
      }
      if (event.kind === 'item') return { done: false, value: event.value };
      stop();
      const status = event.problem.status;
      throw problemError(typeof status === 'number' && status >= 400 && status <= 599 ? status : 500, event.problem);
    },
    async return() {
      stop();
      return DONE;
    },
  };
  return { [Symbol.asyncIterator]: () => iterator };
}
