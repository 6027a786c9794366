const EMPTY = new Uint8Array(0);
/** The smallest buffer a reader keeps an unfinished item in. */
const MIN_OWN_BYTES = 4096;

/**
 * The bytes of a stream a reader has not consumed yet: `bytes` up to its end, from `start`. A
 * chunk pushed when nothing is left over is used as it is, without a copy; what is left over of it
 * when the reader needs more (an unfinished item) is copied into a buffer of the reader's own,
 * which grows by doubling, so an item arriving in many small chunks costs linear time.
 */
export class Tail {
  /** Ends where the unconsumed bytes end. */
  bytes: Uint8Array = EMPTY;
  start = 0;
  /** The reader's own buffer, of which `bytes` is then a view from 0. */
  private own: Uint8Array = EMPTY;

  get size(): number {
    return this.bytes.length - this.start;
  }

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    if (this.size === 0) {
      this.bytes = chunk;
      this.start = 0;
      return;
    }
    this.keep(chunk.length);
    const end = this.bytes.length;
    this.own.set(chunk, end);
    this.bytes = this.own.subarray(0, end + chunk.length);
  }

  /**
   * Moves the unconsumed bytes to the start of the reader's own buffer, with room for `more`
   * bytes after them: called when the reader waits for more, so no chunk of the caller's is held.
   */
  keep(more = 0): void {
    const size = this.size;
    if (this.bytes.buffer === this.own.buffer && this.start === 0 && size + more <= this.own.length) return;
    let own = this.own;
    if (own.length < size + more) own = new Uint8Array(Math.max(MIN_OWN_BYTES, 2 * own.length, size + more));
    // Within one buffer the bytes move down (`copyWithin`); from another they are copied.
    if (this.bytes.buffer === own.buffer) own.copyWithin(0, this.start, this.start + size);
    else own.set(this.bytes.subarray(this.start, this.start + size), 0);
    this.own = own;
    this.bytes = own.subarray(0, size);
    this.start = 0;
  }
}
