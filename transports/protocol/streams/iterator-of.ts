/**
 * The iterator of what a stream method returned: an `AsyncIterable` (an `async function*`, a
 * `ReadableStream`) or an `Iterable` (an array). Anything else is a mistake of the method (a 500).
 */
export function iteratorOf(source: unknown): AsyncIterator<unknown> {
  if (source !== null && typeof source === 'object') {
    if (isReadableStream(source)) return readerIterator(source.getReader());
    const asyncIterator = (source as Partial<AsyncIterable<unknown>>)[Symbol.asyncIterator];
    if (typeof asyncIterator === 'function') return asyncIterator.call(source) as AsyncIterator<unknown>;
    const iterator = (source as Partial<Iterable<unknown>>)[Symbol.iterator];
    if (typeof iterator === 'function') return syncToAsync(iterator.call(source) as Iterator<unknown>);
  }
  throw new TypeError(
    `a stream method must return an AsyncIterable (an async generator, a ReadableStream) or an Iterable, got ${source === null ? 'null' : typeof source}`,
  );
}

function syncToAsync(iterator: Iterator<unknown>): AsyncIterator<unknown> {
  return {
    next: () => Promise.resolve(iterator.next()),
    return: () => Promise.resolve(iterator.return?.() ?? { done: true, value: undefined }),
  };
}

function isReadableStream(source: object): source is ReadableStream<unknown> {
  return typeof ReadableStream === 'function' && source instanceof ReadableStream;
}

/**
 * A `ReadableStream` read through its own reader rather than its async iterator, whose `return()`
 * waits behind a pending read: `reader.cancel()` settles that read at once (as done) and tells the
 * stream's source, so a stream left waiting for its next chunk is freed when the answer ends.
 */
function readerIterator(reader: ReadableStreamDefaultReader<unknown>): AsyncIterator<unknown> {
  return {
    next: () => reader.read() as Promise<IteratorResult<unknown>>,
    return: async () => {
      await reader.cancel();
      return { done: true, value: undefined };
    },
  };
}
