import type { Load } from '../rest/load.ts';

const EMPTY = new Uint8Array(0);

/** The outcome of reading a request body under a cap; `busy` when the handler's body budget ran out. */
export type BodyResult =
  | { readonly kind: 'ok'; readonly body: Uint8Array }
  | { readonly kind: 'too-large' }
  | { readonly kind: 'busy' }
  | { readonly kind: 'broken' };

const BUSY: BodyResult = Object.freeze({ kind: 'busy' });

/**
 * Reads the body of `request` under `limit` bytes: a declared `Content-Length` over the cap fails
 * before anything is read, one within it is read whole, and a body without one is read as a
 * stream cancelled as soon as it crosses the cap (an endless upload costs at most `limit` bytes
 * and one chunk). The bytes count in `load` (a declared length from the start, a stream chunk by
 * chunk): a body that does not fit is `busy`. Those of a body read whole stay counted (the caller
 * counts them out when its call settles); those of a failed read are counted out here.
 */
export async function readBody(request: Request, limit: number, load: Load): Promise<BodyResult> {
  const length = request.headers.get('content-length');
  const declared = Number(length ?? 0);
  if (declared > limit) {
    discard(request);
    return { kind: 'too-large' };
  }
  if (request.body === null) return { kind: 'ok', body: EMPTY };
  // A declared length within the cap: the runtime's HTTP layer delivers exactly that many bytes,
  // and `arrayBuffer()` takes them in one step (reading chunk by chunk cost Bun twice the CPU).
  // The size is checked again for a `Request` made in process with a length that lies.
  if (length !== null && Number.isSafeInteger(declared) && declared >= 0) {
    // Counted before the runtime buffers it, so that the count covers bodies being received.
    if (!load.take(declared)) {
      discard(request);
      return BUSY;
    }
    let body: Uint8Array;
    try {
      body = new Uint8Array(await request.arrayBuffer());
    } catch {
      load.give(declared);
      return { kind: 'broken' };
    }
    load.give(declared - body.byteLength);
    if (body.byteLength <= limit) return { kind: 'ok', body };
    load.give(body.byteLength);
    return { kind: 'too-large' };
  }
  return readStream(request.body, limit, load);
}

/**
 * Reads a byte stream whole, never holding more than `limit` bytes: the stream is cancelled as
 * soon as it crosses the cap (not waited for), and a stream that errors or yields anything but
 * bytes is `broken`. With `load`, each chunk counts in it as it arrives, as `readBody` says.
 */
export async function readStream(stream: ReadableStream<Uint8Array>, limit: number, load?: Load): Promise<BodyResult> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const fail = (result: BodyResult): BodyResult => {
    load?.give(size);
    return result;
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      // A stream of anything but bytes (strings, say) is not an HTTP body.
      if (!(value instanceof Uint8Array)) {
        reader.cancel().catch(() => {});
        return fail({ kind: 'broken' });
      }
      if (size + value.byteLength > limit) {
        reader.cancel().catch(() => {});
        return fail({ kind: 'too-large' });
      }
      if (load !== undefined && !load.take(value.byteLength)) {
        reader.cancel().catch(() => {});
        return fail(BUSY);
      }
      size += value.byteLength;
      chunks.push(value);
    }
  } catch {
    return fail({ kind: 'broken' });
  }
  if (chunks.length === 1) return { kind: 'ok', body: chunks[0]! };
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return { kind: 'ok', body };
}

/**
 * Cancels a body that will not be read, so that the runtime can stop receiving it. Not waited
 * for: a stream whose `cancel()` never settles must not hold the answer back.
 */
export function discard(request: Request): void {
  if (request.body !== null && !request.bodyUsed && !request.body.locked) request.body.cancel().catch(() => {});
}
