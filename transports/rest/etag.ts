import { flatText } from '../protocol/flat-text.ts';
import { hash64 } from '../protocol/hash64.ts';

/**
 * The strong entity tag of an answer's body as the codec encoded it (before any compression: a
 * compressed answer carries it weak, `W/"…"`, see `markEncoded`), its media type mixed in, so that
 * the same value in JSON, MessagePack and CBOR has three tags: `"` and 16 hexadecimal digits `"`.
 */
export function entityTag(body: Uint8Array | string, contentType: string): string {
  // Flat before it is read character by character: a text the writers built is a tree of pieces.
  return `"${hash64(contentType, typeof body === 'string' ? flatText(body) : body)}"`;
}

/**
 * The member of `ifNoneMatch` (an `If-None-Match` value: `*`, or a list of entity tags) that
 * matches `tag` by the weak comparison RFC 9110 §13.1.2 asks for (the opaque tags are equal, `W/`
 * or not), as the client sent it: the tag its cache holds (`W/"…"` for an answer it received
 * compressed). `*` matches any answer, as `tag`. `undefined` when none matches; a list that is not
 * one (an unquoted member) matches nothing from that member on.
 */
export function matchingTag(ifNoneMatch: string, tag: string): string | undefined {
  const want = opaque(tag);
  const n = ifNoneMatch.length;
  let i = 0;
  for (;;) {
    while (i < n && isListSpace(ifNoneMatch.charCodeAt(i))) i++;
    if (i >= n) return undefined;
    if (ifNoneMatch[i] === '*') return tag;
    const start = i;
    if (ifNoneMatch.startsWith('W/', i)) i += 2;
    if (ifNoneMatch[i] !== '"') return undefined;
    const end = ifNoneMatch.indexOf('"', i + 1);
    if (end === -1) return undefined;
    if (end - i + 1 === want.length && ifNoneMatch.startsWith(want, i)) return ifNoneMatch.slice(start, end + 1);
    i = end + 1;
  }
}

/** The quoted part of an entity tag, without `W/`. */
function opaque(tag: string): string {
  return tag.startsWith('W/') ? tag.slice(2) : tag;
}

/** Space, tab and the comma between members of a list. */
function isListSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x2c;
}
