import { reasonPhrase } from '../rest/problem.ts';
import type { EndpointResponse } from '../rest/types.ts';

const utf8 = new TextEncoder();

/**
 * A Web `Response` for an endpoint's answer: `Content-Length` always, no body for HEAD, 204 and
 * 304. `encoded`: the body is compressed already, as its `Content-Encoding` says.
 */
export function toResponse(answer: EndpointResponse, head: boolean, encoded = false): Response {
  const headers = new Headers();
  for (const name in answer.headers) {
    const value = answer.headers[name]!;
    if (typeof value === 'string') headers.set(name, value);
    else for (const line of value) headers.append(name, line);
  }
  const bodyless = answer.status === 204 || answer.status === 304;
  const body = bodyless || answer.body === undefined ? undefined : typeof answer.body === 'string' ? utf8.encode(answer.body) : answer.body;
  if (!bodyless) headers.set('content-length', String(body?.byteLength ?? 0));
  const init: ResponseInit & { encodeBody?: 'manual' } = { status: answer.status, headers };
  // workerd compresses a body itself when the Response names a Content-Encoding, unless told the
  // body is encoded already; other runtimes ignore the member.
  if (encoded) init.encodeBody = 'manual';
  // The reason phrase of the problem titles, for runtimes that write one.
  const reason = reasonPhrase(answer.status);
  if (reason !== undefined) init.statusText = reason;
  return new Response(head || body === undefined ? null : (body as BodyInit), init);
}
