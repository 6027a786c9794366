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
  /** Where the value being written starts; bytes before it belong to results already handed out. */
  start = 0;

  constructor(size = INITIAL_SIZE) {
    this.buf = new Uint8Array(size);
    this.view = new DataView(this.buf.buffer);
  }

  /** Makes room for `n` more bytes at `pos`. */
  ensure(n: number): void {
    if (this.pos + n > this.buf.length) this.grow(this.pos + n);
  }

  /** Moves the value being written to a new, larger buffer; the old one keeps earlier results intact. */
  private grow(needed: number): void {
    const length = this.pos - this.start;
    let size = this.buf.length * 2;
    while (size < needed - this.start) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(this.start, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
    this.start = 0;
    this.pos = length;
  }

  /** Appends bytes that were encoded ahead of time (object keys). */
  raw(bytes: Uint8Array): void {
    this.ensure(bytes.length);
    const buf = this.buf;
    let p = this.pos;
    // Keys are short: a loop beats `set()` and its call overhead there.
    if (bytes.length < 16) for (let i = 0; i < bytes.length; i++) buf[p++] = bytes[i]!;
    else buf.set(bytes, p), (p += bytes.length);
    this.pos = p;
  }
}
