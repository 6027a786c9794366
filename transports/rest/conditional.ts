import { entityTag, matchingTag } from './etag.ts';
import type { EndpointResponse, HeaderValues } from '../protocol/types.ts';

/**
 * The success answer of a GET (or HEAD) with a body of `contentType`: its `Cache-Control` (`control`, unless the
 * method set one), and, unless `control` is `no-store`, its entity tag (the method's own `ETag`
 * if it set one); a request whose `If-None-Match` matches the tag is answered 304, with these
 * headers and no body.
 */
export function conditionalAnswer(
  headers: HeaderValues,
  body: Uint8Array | string,
  contentType: string,
  control: string | undefined,
  ifNoneMatch: string | null,
): EndpointResponse {
  if (control !== undefined) headers['cache-control'] ??= control;
  if (control !== 'no-store') {
    const own = headers.etag;
    const tag = typeof own === 'string' ? own : (headers.etag = entityTag(body, contentType));
    const held = ifNoneMatch === null ? undefined : matchingTag(ifNoneMatch, tag);
    if (held !== undefined) {
      // What the 200 would carry but for the type of a body it does not have; the tag as the
      // client holds it, so that its cache updates the answer it stored (weak, if compressed).
      headers.etag = held;
      return { status: 304, headers, body: undefined };
    }
  }
  headers['content-type'] = contentType;
  return { status: 200, headers, body };
}
