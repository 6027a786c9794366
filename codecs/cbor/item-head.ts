import { BREAK, CHUNKS, CONTAINER, TAG, VALUE, type Head } from '../binary/item-scanner.ts';

/** The bytes after the initial byte that hold the argument, for additional information 24 to 27. */
const ARGUMENT_BYTES = [1, 2, 4, 8] as const;

/**
 * The head of a CBOR data item at `p` (see `HeadReader`): a definite string's bytes and a float's
 * are its payload, an array holds its length in items and a map twice its size, an indefinite
 * length is -1 (up to a break), a tag is a prefix of the item after it.
 */
export function cborHead(head: Head, bytes: Uint8Array, p: number, end: number): number {
  const b = bytes[p]!;
  const major = b >> 5;
  const info = b & 0x1f;
  head.kind = VALUE;
  head.payload = 0;
  head.chunk = false;
  if (major === 7) {
    if (info === 31) return ((head.kind = BREAK), 1);
    if (info >= 28) return -1; // reserved
    if (info >= 24) head.payload = ARGUMENT_BYTES[info - 24]!; // a simple value's byte, a float
    return 1;
  }
  if (info >= 28) {
    if (info < 31) return -1; // reserved
    // An indefinite length: strings (as chunks), arrays and maps only.
    if (major === 2 || major === 3) return ((head.kind = CHUNKS), 1);
    if (major === 4 || major === 5) return ((head.kind = CONTAINER), (head.children = -1), 1);
    return -1;
  }
  let size = 1;
  let n = info;
  if (info >= 24) {
    size += ARGUMENT_BYTES[info - 24]!;
    if (p + size > end) return 0;
    n = 0;
    // An argument beyond 2^53 is only ever a length far beyond any limit: approximate is enough.
    for (let i = p + 1; i < p + size; i++) n = n * 256 + bytes[i]!;
  }
  switch (major) {
    case 2:
    case 3:
      head.payload = n;
      head.chunk = true;
      break; // byte and text strings
    case 4:
      head.kind = CONTAINER;
      head.children = n;
      break;
    case 5:
      head.kind = CONTAINER;
      head.children = n * 2;
      break;
    case 6:
      head.kind = TAG;
      break;
    default:
      break; // integers: the argument is the value
  }
  return size;
}
