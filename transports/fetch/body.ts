import { BROKEN, BodyCollector, BUSY, type BodyResult } from '../protocol/pipeline/request-body.ts';

/**
 * Reads the body of `request` into `collector`, and calls `done` once with the outcome. A declared
 * length (within the limit: the pipeline has refused one over it) is read in one step, since the
 * runtime's HTTP layer delivers exactly that many bytes (reading chunk by chunk cost Bun twice the
 * CPU), and counted in the load before the runtime buffers it; the size is checked again for a
 * `Request` made in process with a length that lies. A body without one is read as a stream,
 * cancelled as soon as it crosses the limit. Callbacks rather than an async function: a body read
 * makes no more promises than the runtime's own.
 */
export function readBody(
  request: Request,
  declared: number | undefined,
  collector: BodyCollector,
  done: (result: BodyResult) => void,
): void {
  if (declared === undefined) {
    if (request.body === null) done(collector.finish());
    else void readStream(request.body, collector).then(done);
    return;
  }
  const load = collector.load;
  if (load !== undefined && !load.take(declared)) {
    discard(request);
    return done(BUSY);
  }
  request.arrayBuffer().then(
    (buffer) => {
      // Counted again, chunk-wise, by the collector.
      load?.give(declared);
      done(collector.add(new Uint8Array(buffer)) ?? collector.finish());
    },
    () => {
      load?.give(declared);
      done(BROKEN);
    },
  );
}

/**
 * Reads a byte stream whole into `collector`: the stream is cancelled as soon as the collector
 * refuses a chunk (not waited for), and a stream that errors or yields anything but bytes is
 * `broken`.
 */
export async function readStream(stream: ReadableStream<Uint8Array>, collector: BodyCollector): Promise<BodyResult> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return collector.finish();
      // A stream of anything but bytes (strings, say) is not an HTTP body.
      const failed = value instanceof Uint8Array ? collector.add(value) : collector.fail(BROKEN);
      if (failed !== undefined) {
        reader.cancel().catch(() => {});
        return failed;
      }
    }
  } catch {
    return collector.fail(BROKEN);
  }
}

/** Reads a byte stream whole, under `limit` bytes (an inflater's or a compressor's output). */
export function readAll(stream: ReadableStream<Uint8Array>, limit: number): Promise<BodyResult> {
  return readStream(stream, new BodyCollector(limit, undefined));
}

/**
 * Cancels a body that will not be read, so that the runtime can stop receiving it. Not waited
 * for: a stream whose `cancel()` never settles must not hold the answer back.
 */
export function discard(request: Request): void {
  if (request.body !== null && !request.bodyUsed && !request.body.locked) request.body.cancel().catch(() => {});
}

/**
 * The chunks of a request's body, each read only when the one before is taken (what runtimes
 * without async iteration of streams need). Leaving the loop early releases the reader; the
 * handler discards the rest.
 */
export async function* chunksOf(request: Request): AsyncGenerator<Uint8Array, void, undefined> {
  if (request.body === null) return;
  const reader = request.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}
