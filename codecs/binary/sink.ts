/** Bytes reserved when a sink is created: enough for a typical record without growing. */
const INITIAL_SIZE = 2048;

/**
 * A growable output buffer for the binary writers. Writers call `ensure(n)` before writing at
 * most `n` bytes at `pos`; the buffer grows by doubling, so a document costs O(log n) copies.
 */
export class Sink {
  buf: Uint8Array;
  view: DataView;
  pos = 0;

  constructor(size = INITIAL_SIZE) {
    this.buf = new Uint8Array(size);
    this.view = new DataView(this.buf.buffer);
  }

  /** Makes room for `n` more bytes at `pos`. */
  ensure(n: number): void {
    if (this.pos + n > this.buf.length) this.grow(this.pos + n);
  }

  private grow(needed: number): void {
    let size = this.buf.length * 2;
    while (size < needed) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  /** Appends bytes that were encoded ahead of time (object keys). */
  raw(bytes: Uint8Array): void {
    this.ensure(bytes.length);
    const buf = this.buf;
    let p = this.pos;
    // Keys are short: a loop beats `set()` and its call overhead there.
    if (bytes.length < 16) for (let i = 0; i < bytes.length; i++) buf[p++] = bytes[i]!;
    else (buf.set(bytes, p), (p += bytes.length));
    this.pos = p;
  }
}
