import type { EndpointResponse } from '../rest/types.ts';

const utf8 = new TextEncoder();

/** A Web `Response` for an endpoint's answer: `Content-Length` always, no body for HEAD, 204 and 304. */
export function toResponse(answer: EndpointResponse, head: boolean): Response {
  const headers = new Headers(answer.headers);
  const bodyless = answer.status === 204 || answer.status === 304;
  const body = bodyless || answer.body === undefined ? undefined : typeof answer.body === 'string' ? utf8.encode(answer.body) : answer.body;
  if (!bodyless) headers.set('content-length', String(body?.byteLength ?? 0));
  return new Response(head || body === undefined ? null : (body as BodyInit), { status: answer.status, headers });
}
