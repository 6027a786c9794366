import type { Codec } from '../../core/codec.ts';
import type { Type } from '../../core/descriptors/type.ts';
import type { ReadOptions } from '../../core/options.ts';
import { json } from '../../codecs/json/index.ts';
import { mediaTypeEssence } from '../rest/media-type.ts';
import { SSE, sequenceTypeOf } from '../rest/stream/media-types.ts';
import { sequenceReader, type SequenceEvent } from '../rest/stream/read.ts';
import { abortable, discard } from './abort.ts';
import { problemError } from './answer.ts';

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * The items of a stream answer, each decoded and validated with `item` as it arrives: an
 * `AsyncIterable` for `for await`. A problem ending the stream throws `HttpError`, a stream cut
 * before its end throws; leaving the loop (or `signal` aborting) cancels the answer's body.
 */
export function streamResult(response: Response, item: Type, codecs: readonly Codec[], opts: ReadOptions, signal?: AbortSignal): AsyncIterable<unknown> {
  const contentType = response.headers.get('content-type') ?? '';
  const essence = mediaTypeEssence(contentType);
  const codec = essence === SSE ? json : codecs.find((c) => sequenceTypeOf(c) === essence);
  if (response.body === null || codec === undefined) {
    discard(response);
    throw new TypeError(`lacquer/client: the answer is ${contentType || 'without a Content-Type'}, not a stream this client reads`);
  }
  const sequence = sequenceReader(contentType, codec, item, opts);
  const body = response.body.getReader();
  const queue: SequenceEvent[] = [];
  let finished = false;
  const stop = () => {
    finished = true;
    queue.length = 0;
    body.cancel().catch(() => {});
  };
  const iterator: AsyncIterator<unknown> = {
    async next() {
      try {
        while (queue.length === 0) {
          if (finished) return DONE;
          const chunk = await abortable(body.read(), signal);
          if (chunk.done) {
            finished = true;
            queue.push(...sequence.finish());
          } else queue.push(...sequence.push(chunk.value));
        }
      } catch (error) {
        stop();
        throw error;
      }
      const event = queue.shift()!;
      if (event.kind === 'item') return { done: false, value: event.value };
      stop();
      if (event.kind === 'end') return DONE;
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
