import type { Codec } from '../../core/codec.ts';
import type { Type } from '../../core/descriptors/type.ts';
import type { Opts } from '../../core/options.ts';
import { json } from '../../codecs/json/index.ts';
import { ownSequenceWriter } from '../protocol/streams/plain-framing.ts';
import type { SequenceWriter } from '../protocol/streams/writer.ts';
import { concatBytes } from '../protocol/streams/bytes.ts';

/** The writer of a request stream: in the client's codec's sequence type, else JSON Lines. */
export function streamWriter(codec: Codec, item: Type, opts: Opts): SequenceWriter<Type> {
  const framed = codec.sequenceType === undefined ? json : codec;
  return ownSequenceWriter(framed.sequenceType!, framed, item, opts);
}

/**
 * The body of a request stream from what the caller gave: an array (or any `Iterable`) is written
 * whole before sending, so a value that does not fit throws `WriteError` before anything is sent
 * and browsers send it over any HTTP version; an `AsyncIterable` is sent as it is produced (a
 * `ReadableStream` pulled by `fetch`; browsers stream a request's body over HTTP/2 only).
 */
export function streamBody(
  items: unknown,
  writer: SequenceWriter<Type>,
  name: string,
): Uint8Array | ReadableStream<Uint8Array> {
  if (typeof items !== 'object' || items === null)
    throw new TypeError(`${name}(): a stream parameter takes an array or an AsyncIterable of items`);
  const asyncIterator = (items as Partial<AsyncIterable<unknown>>)[Symbol.asyncIterator];
  if (typeof asyncIterator !== 'function') {
    const iterator = (items as Partial<Iterable<unknown>>)[Symbol.iterator];
    if (typeof iterator !== 'function')
      throw new TypeError(`${name}(): a stream parameter takes an array or an AsyncIterable of items`);
    return concatBytes(
      [...(items as Iterable<unknown>)].map((item) => writer.item(item as never)).concat(writer.end()),
    );
  }
  const source = asyncIterator.call(items) as AsyncIterator<unknown>;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await source.next();
      if (next.done === true) {
        controller.enqueue(writer.end());
        controller.close();
      } else controller.enqueue(writer.item(next.value as never));
    },
    async cancel() {
      await source.return?.();
    },
  });
}
