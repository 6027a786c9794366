import { ReadError } from '../../../core/errors/read-error.ts';
import type { SequenceReader } from './events.ts';
import { readEvents } from './read-events.ts';

/** The read errors of request streams: what the client sent, answered 400 when a method lets one escape. */
const clientErrors = new WeakSet<object>();

/** Whether `error` is a request stream's own `ReadError` (a bad item, a cut, a body over its limit). */
export function isRequestStreamError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && clientErrors.has(error);
}

/**
 * The items of a request's body, read from `chunks` by `reader` as the method takes them: no chunk
 * is asked for before the items before it are taken, so memory holds one item (and one chunk)
 * whatever the body's length. A bad item throws `ReadError` at its index (`/2/title`); so does a body
 * cut before its end, one the client ended with a problem document, or bytes after the end marker
 * (`syntax_error` at the index after the items): the stream ends once the body has.
 */
export async function* requestItems<T>(chunks: AsyncIterable<Uint8Array>, reader: SequenceReader<T>): AsyncGenerator<T, void, undefined> {
  try {
    // After the end, the rest of the body is read too: bytes there are an error, not dropped.
    for await (const event of readEvents(reader, chunks)) {
      if (event.kind === 'item') yield event.value;
      else if (event.kind === 'error') throw new ReadError('syntax_error', `/${reader.items}`, `the client ended its stream with a problem: ${event.problem.detail ?? event.problem.title}`);
    }
  } catch (error) {
    if (error instanceof ReadError) clientErrors.add(error);
    throw error;
  }
}
