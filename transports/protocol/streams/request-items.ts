import { HttpError } from '../../../core/errors/http-error.ts';
import { ReadError } from '../../../core/errors/read-error.ts';
import { shownText } from '../../../core/errors/shown-text.ts';
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
export async function* requestItems<T>(
  chunks: AsyncIterable<Uint8Array>,
  reader: SequenceReader<T>,
  hold?: HoldBytes,
): AsyncGenerator<T, void, undefined> {
  try {
    // After the end, the rest of the body is read too: bytes there are the reader's error, not dropped.
    for await (const event of readEvents(reader, hold === undefined ? chunks : held(chunks, reader, hold))) {
      if (event.kind === 'item') yield event.value;
      else if (event.kind === 'error') {
        const told = shownText(event.problem.detail ?? event.problem.title);
        throw new ReadError('syntax_error', `/${reader.items}`, `the client ended its stream with a problem: ${told}`);
      }
    }
  } catch (error) {
    if (error instanceof ReadError) clientErrors.add(error);
    throw error;
  } finally {
    hold?.(0);
  }
}

/**
 * `chunks`, with what `reader` holds once a chunk's items are taken (the unfinished item, kept
 * until its bytes come) counted by `hold` before the next chunk is read.
 */
async function* held(
  chunks: AsyncIterable<Uint8Array>,
  reader: SequenceReader<unknown>,
  hold: HoldBytes,
): AsyncGenerator<Uint8Array, void, undefined> {
  for await (const chunk of chunks) {
    yield chunk;
    if (!hold(reader.buffered)) throw busyStream();
  }
}

/**
 * Counts the bytes a request stream's reader holds (its unfinished item) against the transport's
 * cap on the body bytes it holds (`maxBufferedBodyBytes`), in place of what it counted before;
 * `false` when they do not fit (see `EndpointRequest.holdStreamBytes`).
 */
export type HoldBytes = (bytes: number) => boolean;

/** A request stream whose unfinished item would pass the server's cap: answered 503 as an unfinished whole body is. */
function busyStream(): HttpError {
  return new HttpError(
    503,
    'the server is busy: the request bodies it holds would pass its limit (maxBufferedBodyBytes); try again later',
    { headers: { 'retry-after': '1' } },
  );
}
