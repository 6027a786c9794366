import type { SequenceReader, StreamEvent } from './events.ts';

/**
 * The events of a stream whose bytes come as `chunks` (a body), through `reader`: each as soon as
 * its bytes have come, ending with the `end` or `error` event; throws `ReadError` as the reader does
 * (a cut included).
 */
export async function* readEvents<T>(
  reader: SequenceReader<T>,
  chunks: AsyncIterable<Uint8Array>,
): AsyncGenerator<StreamEvent<T>, void, undefined> {
  for await (const chunk of chunks) {
    reader.push(chunk);
    for (let event = reader.next(); event !== undefined; event = reader.next()) yield event;
  }
  reader.finish();
  for (let event = reader.next(); event !== undefined; event = reader.next()) yield event;
}
