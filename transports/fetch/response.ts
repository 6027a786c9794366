import { reasonPhrase } from '../protocol/problem.ts';
import { isFrames, stopFrames } from '../protocol/answer-body.ts';
import type { EndpointResponse, Frames, HeaderValues } from '../protocol/types.ts';
import { utf8Length } from '../protocol/utf8-length.ts';

const utf8 = new TextEncoder();

/**
 * A Web `Response` for an endpoint's answer: `Content-Length` always (but for frames, streamed as
 * they come), no body for HEAD, 204 and 304. `encoded`: the body is compressed already, as its
 * `Content-Encoding` says. The answer's headers are completed in place: an answer is made for the
 * one request it answers. Text goes to the runtime as it is (it encodes natively), but for a body
 * without a `Content-Type`, which a runtime would label `text/plain`.
 */
export function toResponse(answer: EndpointResponse, head: boolean, encoded = false): Response {
  const { status, headers, body } = answer;
  const bodyless = status === 204 || status === 304;
  if (isFrames(body)) {
    if (head || bodyless) stopFrames(body);
    return new Response(head || bodyless ? null : framesStream(body), responseInit(status, headers, encoded));
  }
  let payload: BodyInit | null = null;
  if (!bodyless) {
    let length = 0;
    if (typeof body === 'string') {
      length = utf8Length(body);
      if (!head) payload = headers['content-type'] === undefined ? utf8.encode(body) : body;
    } else if (body !== undefined) {
      length = body.byteLength;
      if (!head) payload = body as Uint8Array<ArrayBuffer>;
    }
    headers['content-length'] = String(length);
  }
  return new Response(payload, responseInit(status, headers, encoded));
}

/** The headers as `Headers` takes them: the record itself, but where a name has several lines (`set-cookie`). */
function headersInit(headers: HeaderValues): HeadersInit {
  for (const name in headers) {
    if (typeof headers[name] !== 'string')
      return Object.entries(headers).flatMap(([n, v]) =>
        typeof v === 'string' ? [[n, v]] : v.map((line) => [n, line]),
      );
  }
  return headers as Record<string, string>;
}

function responseInit(status: number, headers: HeaderValues, encoded: boolean): ResponseInit {
  const init: ResponseInit & { encodeBody?: 'manual' } = { status, headers: headersInit(headers) };
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
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await iterator.next();
        if (next.done === true) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        await iterator.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}
