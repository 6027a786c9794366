import { CONTAINER, VALUE, type Head } from '../binary/item-scanner.ts';

/**
 * The head of a MessagePack value at `p` (see `HeadReader`): a string's, bin's or extension's
 * bytes and a number's are its payload, an array holds its length in values, a map twice its size.
 */
export function msgpackHead(head: Head, bytes: Uint8Array, p: number, end: number): number {
  const b = bytes[p]!;
  head.kind = VALUE;
  head.payload = 0;
  if (b < 0x80 || b >= 0xe0) return 1; // positive and negative fixint
  if (b < 0xa0) {
    head.kind = CONTAINER;
    head.children = b < 0x90 ? (b & 0x0f) * 2 : b & 0x0f; // fixmap, fixarray
    return 1;
  }
  if (b < 0xc0) return ((head.payload = b & 0x1f), 1); // fixstr
  switch (b) {
    case 0xc0:
    case 0xc2:
    case 0xc3:
      return 1; // nil, false, true
    case 0xc1:
      return -1; // never used
    case 0xc4:
    case 0xd9:
      return sized(head, bytes, p, end, 1, 0); // bin 8, str 8
    case 0xc5:
    case 0xda:
      return sized(head, bytes, p, end, 2, 0); // bin 16, str 16
    case 0xc6:
    case 0xdb:
      return sized(head, bytes, p, end, 4, 0); // bin 32, str 32
    case 0xc7:
      return sized(head, bytes, p, end, 1, 1); // ext 8: length, type
    case 0xc8:
      return sized(head, bytes, p, end, 2, 1); // ext 16
    case 0xc9:
      return sized(head, bytes, p, end, 4, 1); // ext 32
    case 0xca:
    case 0xce:
    case 0xd2:
      return ((head.payload = 4), 1); // float 32, uint 32, int 32
    case 0xcb:
    case 0xcf:
    case 0xd3:
      return ((head.payload = 8), 1); // float 64, uint 64, int 64
    case 0xcc:
    case 0xd0:
      return ((head.payload = 1), 1); // uint 8, int 8
    case 0xcd:
    case 0xd1:
      return ((head.payload = 2), 1); // uint 16, int 16
    case 0xd4:
    case 0xd5:
    case 0xd6:
    case 0xd7:
    case 0xd8:
      return ((head.payload = 1 + (1 << (b - 0xd4))), 1); // fixext: type, data
    case 0xdc:
      return counted(head, bytes, p, end, 2, 1); // array 16
    case 0xdd:
      return counted(head, bytes, p, end, 4, 1); // array 32
    case 0xde:
      return counted(head, bytes, p, end, 2, 2); // map 16
    default:
      return counted(head, bytes, p, end, 4, 2); // map 32 (0xdf)
  }
}

/** A big-endian length of `size` bytes after the head byte at `p`; -1 when `bytes` ends before it. */
function lengthAt(bytes: Uint8Array, p: number, end: number, size: 1 | 2 | 4): number {
  if (p + 1 + size > end) return -1;
  if (size === 1) return bytes[p + 1]!;
  if (size === 2) return (bytes[p + 1]! << 8) | bytes[p + 2]!;
  return ((bytes[p + 1]! << 24) >>> 0) + ((bytes[p + 2]! << 16) | (bytes[p + 3]! << 8) | bytes[p + 4]!);
}

/** A string, bin or extension: its length, then `extra` bytes (an extension's type) before its payload. */
function sized(head: Head, bytes: Uint8Array, p: number, end: number, size: 1 | 2 | 4, extra: number): number {
  const n = lengthAt(bytes, p, end, size);
  if (n < 0) return 0;
  head.payload = n + extra;
  return 1 + size;
}

/** An array (`per` 1) or map (`per` 2) of a counted size. */
function counted(head: Head, bytes: Uint8Array, p: number, end: number, size: 2 | 4, per: 1 | 2): number {
  const n = lengthAt(bytes, p, end, size);
  if (n < 0) return 0;
  head.kind = CONTAINER;
  head.children = n * per;
  return 1 + size;
}
