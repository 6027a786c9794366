import { Failure, addSegment } from '../../core/errors/failure.ts';
import { setEntry } from '../../core/util/set-entry.ts';
import { readUtf8 } from './utf8.ts';

/**
 * What the MessagePack and CBOR decoders share: a position in the input, bounds checks that fail
 * as `syntax_error` before anything is allocated, strict UTF-8, and the `maxDepth` limit.
 * Every read is checked against the end of the input, so a `RangeError` never escapes.
 */
export abstract class ByteCursor {
  pos = 0;
  readonly end: number;
  readonly view: DataView;

  constructor(
    readonly bytes: Uint8Array,
    readonly maxDepth: number,
    /** `MessagePack` or `CBOR`, for messages. */
    readonly format: string,
  ) {
    this.end = bytes.length;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Fails as `syntax_error`: "invalid CBOR: 0xc1 is reserved (offset 3)". */
  fail(what: string, at = this.pos): never {
    throw new Failure('syntax_error', `invalid ${this.format}: ${what} (offset ${at})`);
  }

  /** Fails unless `n` more bytes are there. */
  need(n: number, at = this.pos - 1): void {
    if (this.pos + n > this.end) this.fail(`truncated input: ${n} more byte(s) needed, ${this.end - this.pos} remain`, at);
  }

  /**
   * Checks an announced length before anything is allocated for it: `count` items of at least
   * `minItemBytes` bytes each must fit in what remains, so a 5-byte header announcing a billion
   * elements fails at once.
   */
  announced(count: number, minItemBytes: number, what: string, at: number): void {
    const remaining = this.end - this.pos;
    if (count * minItemBytes > remaining) {
      this.fail(`truncated input: header announces ${what} of ${count}, but only ${remaining} byte(s) remain`, at);
    }
  }

  /** Enters a container at nesting `depth` (the root container is 1). */
  enter(depth: number): void {
    if (depth > this.maxDepth) throw new Failure('limit_exceeded', `nesting deeper than maxDepth (${this.maxDepth})`);
  }

  /** `n` bytes of strict UTF-8 text. */
  text(n: number, at: number): string {
    this.announced(n, 1, 'a string', at);
    const start = this.pos;
    this.pos += n;
    const s = readUtf8(this.bytes, start, this.pos);
    if (s === undefined) this.fail('a string is not valid UTF-8', at);
    return s;
  }

  /** `n` bytes, copied: the result never aliases the caller's buffer. */
  binary(n: number, at: number): Uint8Array {
    this.announced(n, 1, 'a byte string', at);
    const start = this.pos;
    this.pos += n;
    return this.bytes.slice(start, this.pos);
  }

  /** One value; `depth` is the nesting of the container holding it (0 at the root). */
  abstract value(depth: number): unknown;
  /** A map key: a string, anything else is a `type_mismatch`. */
  protected abstract key(depth: number): string;

  /** Reads array items while `more()` says so; a failure inside an item gets its index in the path. */
  protected items(depth: number, more: () => boolean): unknown[] {
    const out: unknown[] = [];
    try {
      while (more()) out.push(this.value(depth));
    } catch (e) {
      addSegment(e, out.length);
    }
    return out;
  }

  /** A definite-length array: the length is checked against the remaining bytes before reading. */
  protected array(length: number, depth: number, at: number): unknown[] {
    this.enter(depth);
    this.announced(length, 1, 'an array', at);
    let i = 0;
    return this.items(depth, () => i++ < length);
  }

  /** A definite-length map: the size is checked against the remaining bytes (two items an entry) first. */
  protected map(size: number, depth: number, at: number): Record<string, unknown> {
    this.enter(depth);
    this.announced(size, 2, 'a map', at);
    let i = 0;
    return this.entries(depth, () => i++ < size);
  }

  /** Reads map entries while `more()` says so; a failure inside an entry gets its key in the path. */
  protected entries(depth: number, more: () => boolean): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    let key: string | undefined;
    try {
      while (more()) {
        key = undefined;
        key = this.key(depth);
        setEntry(out, key, this.value(depth));
      }
    } catch (e) {
      if (key !== undefined) addSegment(e, key);
      throw e;
    }
    return out;
  }

  /** Fails when bytes follow the one top-level value. */
  finish(): void {
    const extra = this.end - this.pos;
    if (extra > 0) this.fail(`${extra} unexpected byte(s) after the value`);
  }
}
