import type { Sink } from './sink.ts';
import { writeUtf8, type HeadSize, type HeadWriter } from './utf8.ts';

/**
 * Writes `v` at `p` one byte per unit while it is ASCII, the common case for short strings.
 * Returns the position after it, or -1 at the first unit that is not ASCII (the bytes written so
 * far are then left for the caller to overwrite).
 */
export function writeAscii(buf: Uint8Array, p: number, v: string): number {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c >= 0x80) return -1;
    buf[p++] = c;
  }
  return p;
}

/** `writeUtf8` in position-passing form, for strings the caller's fast path does not take. */
export function writeUtf8At(s: Sink, p: number, v: string, headSize: HeadSize, writeHead: HeadWriter): number {
  const pos = s.pos;
  s.pos = p;
  writeUtf8(s, v, headSize, writeHead); // makes no room: the caller already has
  const end = s.pos;
  s.pos = pos;
  return end;
}
