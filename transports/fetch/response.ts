import { reasonPhrase } from '../rest/problem.ts';
import { isFrames, stopFrames } from '../rest/answer-body.ts';
import type { EndpointResponse, Frames } from '../rest/types.ts';

const utf8 = new TextEncoder();

/**
 * A Web `Response` for an endpoint's answer: `Content-Length` always (but for frames, streamed as
 * they come), no body for HEAD, 204 and 304. `encoded`: the body is compressed already, as its `Content-Encoding` says.
 */
export function toResponse(answer: EndpointResponse, head: boolean, encoded = false): Response {
  const headers = new Headers();
  for (const name in answer.headers) {
    const value = answer.headers[name]!;
    if (typeof value === 'string') headers.set(name, value);
    else for (const line of value) headers.append(name, line);
  }
  const bodyless = answer.status === 204 || answer.status === 304;
  if (isFrames(answer.body)) {
    if (head || bodyless) stopFrames(answer.body);
    return new Response(head || bodyless ? null : framesStream(answer.body), responseInit(answer.status, headers, encoded));
  }
  const body = bodyless || answer.body === undefined ? undefined : typeof answer.body === 'string' ? utf8.encode(answer.body) : answer.body;
  if (!bodyless) headers.set('content-length', String(body?.byteLength ?? 0));
  return new Response(head || body === undefined ? null : (body as BodyInit), responseInit(answer.status, headers, encoded));
}

function responseInit(status: number, headers: Headers, encoded: boolean): ResponseInit {
  const init: ResponseInit & { encodeBody?: 'manual' } = { status, headers };
  // workerd compresses a body itself when the Response names a Content-Encoding, unless told the
  // body is encoded already; other runtimes ignore the member.
  if (encoded) init.encodeBody = 'manual';
  // The reason phrase of the problem titles, for runtimes that write one.
  const reason = reasonPhrase(status);
  if (reason !== undefined) init.statusText = reason;
  return init;
}

/**
 * Frames as a byte stream the runtime pulls from: the next frame is asked for only when the
 * runtime wants more, and the source is told to stop (`return()`) when the client goes away. A
 * source that fails errors the stream, which the runtime turns into a cut connection.
 */
function framesStream(frames: Frames): ReadableStream<Uint8Array> {
  const iterator = frames[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done === true) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await iterator.return?.();
    },
  }, { highWaterMark: 0 });
}
