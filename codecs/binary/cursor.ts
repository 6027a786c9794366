import { Failure, addSegment } from '../../core/errors/failure.ts';
import { MAX_READ_ERRORS } from '../../core/errors/read-error.ts';
import { BYTES_WEIGHT, itemLimit } from '../../core/options.ts';
import { nestingTooDeep } from '../../core/read/container-failures.ts';
import { setEntry } from '../../core/util/set-entry.ts';
import * as guides from './guide.ts';
import type { Guide } from './guide.ts';
import { readUtf8 } from './utf8.ts';

// Module-level copies of what is used per item: where modules run as CommonJS (tsx, which the
// specs and benchmarks run under, and some bundlers), each use of an imported binding is a call.
const { ACCEPT_ALL, IGNORE, PLACEHOLDER } = guides;
const set = setEntry;

/** CBOR's break, which ends an indefinite-length item (MessagePack has none: it never reads one). */
const BREAK = 0xff;
/**
 * A definite array up to this long is allocated at its length: pushing one element into `[]`
 * reserves room for 17 (some 180 bytes of heap for a 2-byte `[0]`). Longer ones grow as they fill,
 * so a header announcing millions costs nothing before its elements are there.
 */
export const PREALLOCATED = 1024;
/** An indefinite-length array grows by pushes, and so holds room for 17 elements as soon as it has one. */
export const GROWN_ARRAY_WEIGHT = 3;

/**
 * A copy of `bytes[start, end)` as a plain `Uint8Array`, which never aliases the input: the input
 * may be a subclass (Node's `Buffer`), whose `slice` returns a view.
 */
export function copyBytes(bytes: Uint8Array, start: number, end: number): Uint8Array {
  return bytes.constructor === Uint8Array ? bytes.slice(start, end) : new Uint8Array(bytes.subarray(start, end));
}

/** What an array of `length` elements (-1: indefinite) spends of the `maxItems` budget, in every reader. */
export function arrayWeight(length: number): number {
  return length < 0 || length > PREALLOCATED ? GROWN_ARRAY_WEIGHT : 1;
}

/** `arrayWeight` as JavaScript source, for a `length` (an identifier) known not to be negative. */
export function arrayWeightCode(length: string): string {
  return `${length}>${PREALLOCATED}?${GROWN_ARRAY_WEIGHT}:1`;
}

/**
 * What the MessagePack and CBOR decoders share: a position in the input, bounds checks that fail
 * as `syntax_error` before anything is allocated, strict UTF-8, the `maxDepth` limit, and the
 * two defences against inputs that are small on the wire and huge once read (decode
 * amplification: a megabyte of CBOR empty byte strings is a million `Uint8Array`s, 200 MB).
 *
 * 1. The descriptor's {@link Guide}: an array, map or byte string the descriptor refuses by its
 *    kind is parsed (every error in it is found as before) but not built, so an endpoint taking a
 *    `t.u64()` spends no memory on an array of a million items, and gives the same error as ever.
 *    Within an array, once an element is certain to fail the read pass, the elements after it are
 *    never read: they are checked and dropped. An object keeps the values of its declared keys
 *    only, and of its undeclared keys the one the read pass would name in `unknown_key`.
 * 2. The `maxItems` budget ({@link itemLimit}) on what is built: containers, byte strings (4
 *    each) and `t.map` entries. Over it, `limit_exceeded`. The count is an integer add and compare
 *    per item built; scalars cost nothing.
 *
 * Every read is checked against the end of the input, so a `RangeError` never escapes.
 */
export abstract class ByteCursor {
  pos = 0;
  readonly end: number;
  readonly view: DataView;
  /** Items built so far, and how many the input may hold. */
  private items = 0;
  private readonly itemLimit: number;
  /**
   * How many refusals were met: items at a place the read pass reads and whose kind it refuses
   * there. An array's element during which this grows is the last one the read pass will look at.
   */
  private refusals = 0;

  constructor(
    readonly bytes: Uint8Array,
    readonly maxDepth: number,
    /** `MessagePack` or `CBOR`, for messages. */
    readonly format: string,
    /** {@link ReadOptions.maxItems}: `undefined` for the default, which depends on the input's size. */
    maxItems?: number,
  ) {
    this.end = bytes.length;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.itemLimit = itemLimit(maxItems, bytes.length);
  }

  /** Fails as `syntax_error`: "invalid CBOR: 0xc1 is reserved (offset 3)". */
  fail(what: string, at = this.pos): never {
    throw new Failure('syntax_error', `invalid ${this.format}: ${what} (offset ${at})`);
  }

  /** Fails unless `n` more bytes are there. */
  need(n: number, at = this.pos - 1): void {
    if (this.pos + n > this.end)
      this.fail(`truncated input: ${n} more byte(s) needed, ${this.end - this.pos} remain`, at);
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
    if (depth > this.maxDepth) throw nestingTooDeep(this.maxDepth);
  }

  /** Counts `weight` items about to be built; fails once the input holds more than it may. */
  protected count(weight: number): void {
    if ((this.items += weight) > this.itemLimit) {
      throw new Failure(
        'limit_exceeded',
        `the input holds more than ${this.itemLimit} items (arrays, maps, byte strings counting 4, map entries): over maxItems`,
      );
    }
  }

  /** Notes an item that `guide` does not take: refused where the read pass reads it, else ignored. */
  protected refuse(guide: Guide): void {
    if (guide !== IGNORE) this.refusals++;
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

  /** `n` bytes, copied: the result never aliases the caller's buffer. Where `guide` refuses bytes, skipped. */
  binary(n: number, at: number, guide: Guide = ACCEPT_ALL): Uint8Array {
    this.announced(n, 1, 'a byte string', at);
    const start = this.pos;
    this.pos += n;
    return this.keepBytes(guide) ? copyBytes(this.bytes, start, this.pos) : PLACEHOLDER.bytes;
  }

  /** Whether a byte string is built where `guide` says (and then counts it), or refused. */
  protected keepBytes(guide: Guide): boolean {
    if (!guide.bytes) {
      this.refuse(guide);
      return false;
    }
    this.count(BYTES_WEIGHT);
    return true;
  }

  /**
   * One value; `depth` is the nesting of the container holding it (0 at the root), `guide` what
   * the read pass does with it.
   */
  abstract value(depth: number, guide: Guide): unknown;
  /** A map key: a string, anything else is a `type_mismatch`. */
  protected abstract key(depth: number): string;

  /** At the end of an indefinite-length item: consumes the break. Only CBOR has them. */
  protected atBreak(): boolean {
    if (this.pos >= this.end) this.fail('truncated input: an indefinite-length item has no break');
    if (this.bytes[this.pos] !== BREAK) return false;
    this.pos++;
    return true;
  }

  /**
   * An array of `length` items, or up to a break when `length` is -1 (CBOR's indefinite length).
   * A definite length is checked against the remaining bytes before reading; a failure inside an
   * item gets its index in the path.
   */
  protected array(length: number, depth: number, at: number, guide: Guide = ACCEPT_ALL): unknown[] {
    this.enter(depth);
    if (length >= 0) this.announced(length, 1, 'an array', at);
    const tuple = guide.tuple;
    if (!guide.array) {
      this.refuse(guide);
      this.skipItems(length, depth, 0);
      return PLACEHOLDER.array;
    }
    if (tuple !== undefined && length >= 0 && length !== tuple.length) {
      // The read pass reads a tuple's length and fails: an array just as long, with nothing in it.
      this.refuse(guide);
      this.count(1);
      return lengthened([], this.skipItems(length, depth, 0));
    }
    this.count(arrayWeight(length));
    const out: unknown[] = length >= 0 && length <= PREALLOCATED ? new Array(length) : [];
    const refusals = this.refusals;
    let i = 0;
    try {
      for (; length < 0 ? !this.atBreak() : i < length; i++) {
        if (tuple !== undefined && i === tuple.length) this.refusals++; // longer than the tuple
        out[i] = this.value(depth, tuple === undefined ? guide.element! : i < tuple.length ? tuple[i]! : IGNORE);
        if (this.refusals !== refusals) break;
      }
    } catch (e) {
      addSegment(e, i);
    }
    if (this.refusals === refusals) return out;
    // The read pass fails at element i or before: it never reads those after it (but a tuple's
    // length it does, and a constrained array's).
    const total = ++i + this.skipItems(length < 0 ? -1 : length - i, depth, i);
    return tuple === undefined && !guide.counted ? out : lengthened(out, total);
  }

  /** Parses `length` items (-1: up to a break) that the read pass never reads, keeping none; returns how many. */
  private skipItems(length: number, depth: number, first: number): number {
    let i = 0;
    try {
      for (; length < 0 ? !this.atBreak() : i < length; i++) this.value(depth, IGNORE);
    } catch (e) {
      addSegment(e, first + i);
    }
    return i;
  }

  /**
   * A map of `size` entries, or up to a break when `size` is -1. A definite size is checked
   * against the remaining bytes (two items an entry) first; a failure inside an entry gets its key
   * in the path.
   */
  protected map(size: number, depth: number, at: number, guide: Guide = ACCEPT_ALL): Record<string, unknown> {
    this.enter(depth);
    if (size >= 0) this.announced(size, 2, 'a map', at);
    if (!guide.record) {
      this.refuse(guide);
      this.entries(size, depth, IGNORE, undefined);
      return PLACEHOLDER.record;
    }
    this.count(1);
    const out: Record<string, unknown> = {};
    // A refusal inside a map does not make the read pass fail for certain: a repeated key may
    // replace the refused value. Only arrays pass refusals on.
    const refusals = this.refusals;
    this.entries(size, depth, guide, out);
    this.refusals = refusals;
    return out;
  }

  /**
   * Reads entries into `out` (none kept when it is undefined). For an object, only declared keys
   * keep their value; of the undeclared ones, whose values the read pass never reads, only those
   * `for…in` would meet first are kept, as many as `ReadError.errors` can name (the smallest
   * array-index keys, and the first other keys, {@link MAX_READ_ERRORS} of each): `unknown_key`
   * names the same keys as for the whole tree, while a million distinct keys take no memory.
   */
  private entries(size: number, depth: number, guide: Guide, out: Record<string, unknown> | undefined): void {
    const fields = guide.fields;
    const keys = guide.keys;
    let next = 0;
    let key: string | undefined;
    let i = 0;
    // The undeclared keys kept: the first others, and the smallest array indices (ascending).
    let others = 0;
    let indices: number[] | undefined;
    try {
      for (; size < 0 ? !this.atBreak() : i < size; i++) {
        key = undefined;
        key = this.key(depth);
        if (fields === undefined) {
          const value = this.value(depth, guide.values);
          if (out === undefined) continue;
          // An entry of a `t.map` (or of a tree read without a descriptor) is part of the value.
          this.count(1);
          set(out, key, value);
          continue;
        }
        // Members usually come in declared order: the next declared key is tried first.
        const field = next < keys.length && key === keys[next] ? guide.keyGuides[next++] : fields.get(key);
        const value = this.value(depth, field ?? IGNORE);
        if (out === undefined) continue;
        if (field !== undefined) {
          set(out, key, value);
          continue;
        }
        const index = arrayIndex(key);
        if (index < 0) {
          // A key kept already takes its last value, as in the whole tree.
          if (Object.hasOwn(out, key)) set(out, key, value);
          else if (others < MAX_READ_ERRORS) {
            others++;
            set(out, key, value);
          }
        } else if (Object.hasOwn(out, key)) {
          out[key] = value;
        } else if (keepIndex((indices ??= []), index, out)) {
          out[key] = value;
        }
      }
    } catch (e) {
      if (key !== undefined) addSegment(e, key);
      throw e;
    }
  }

  /** Fails when bytes follow the one top-level value. */
  finish(): void {
    const extra = this.end - this.pos;
    if (extra > 0) this.fail(`${extra} unexpected byte(s) after the value`);
  }
}

/**
 * `out` made `length` long without room for that many elements: the last one is set (to
 * `undefined`, never read), so a long gap leaves the array sparse (`out.length = n` would
 * allocate n slots).
 */
function lengthened(out: unknown[], length: number): unknown[] {
  if (length > out.length) out[length - 1] = undefined;
  return out;
}

/** The array index a key is (`"7"`, not `"07"`), which objects keep and enumerate first; -1 for any other key. */
/**
 * Whether the undeclared array index `index` is among the smallest {@link MAX_READ_ERRORS} met so
 * far (`kept`, ascending); the largest kept one leaves `out` when a smaller one takes its place.
 */
function keepIndex(kept: number[], index: number, out: Record<string, unknown>): boolean {
  if (kept.length === MAX_READ_ERRORS) {
    if (index > kept[kept.length - 1]!) return false;
    delete out[String(kept.pop()!)];
  }
  let at = kept.length;
  while (at > 0 && kept[at - 1]! > index) at--;
  kept.splice(at, 0, index);
  return true;
}

function arrayIndex(key: string): number {
  const c = key.charCodeAt(0);
  if (!(c >= 0x30 && c <= 0x39) || key.length > 10) return -1;
  const n = Number(key);
  return n >>> 0 === n && n !== 0xffffffff && String(n) === key ? n : -1;
}
