/** Formats path segments as an RFC 6901 JSON Pointer: `['books', 3, 'a/b']` → `/books/3/a~1b`. */
export function toJsonPointer(segments: readonly (string | number)[]): string {
  let out = '';
  for (const s of segments) out += '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1');
  return out;
}

/** Where a pointer points, for messages: the root has the empty pointer. */
export function describeLocation(pointer: string): string {
  return pointer === '' ? 'the root' : pointer;
}
