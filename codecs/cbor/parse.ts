import { Failure, describeValue } from '../../core/errors/failure.ts';
import { TIMESTAMP, WireTimestamp } from '../../core/kinds/timestamp.ts';
import type { Type } from '../../core/descriptors/type.ts';
import { ByteCursor } from '../binary/cursor.ts';
import { BIGNUM, IGNORE, PLACEHOLDER, SCALAR, guideOf, type Guide } from '../binary/guide.ts';
import { readUtf8 } from '../binary/utf8.ts';
import { decodeFloat16 } from './float16.ts';

const TWO_32 = 4294967296;
/** A 64-bit argument whose high word is below 2^21 is below 2^53: a number holds it. */
const SAFE_HIGH = 0x200000;
/** A bignum longer than this is beyond every finite double (2^1024 needs 129 bytes). */
const MAX_BIGNUM_BYTES = 128;
const BREAK = 0xff;
/** A bignum of up to this many significant bytes is computed as a number, without a `bigint`. */
const SMALL_BIGNUM_BYTES = 6;

/**
 * Parses one CBOR data item into the tree the read pass checks: maps become plain objects with
 * text keys, byte strings `Uint8Array`, integers beyond 2^53 and bignums (tags 2 and 3)
 * `bigint`, `undefined` stays `undefined`, tag 1 (epoch seconds: an integer of any size, bignums
 * included, or a float) and tag 0 (RFC 3339 text) a `WireTimestamp`. Other tags are transparent:
 * the tagged item is read as if untagged. Indefinite lengths are accepted. Given the
 * descriptor `type`, it builds only what the read pass can take, and counts what it builds
 * against `maxItems` (see `ByteCursor`).
 */
export function parseCbor(bytes: Uint8Array, maxDepth: number, type?: Type, maxItems?: number): unknown {
  const parser = new CborParser(bytes, maxDepth, 'CBOR', maxItems);
  const value = parser.value(0, guideOf(type));
  parser.finish();
  return value;
}

class CborParser extends ByteCursor {
  /** One data item; `depth` is the nesting of the container holding it (0 at the root). */
  value(depth: number, guide: Guide): unknown {
    const at = this.pos;
    if (at >= this.end) this.fail(at === 0 ? 'no data' : 'truncated input: a data item is missing');
    const b = this.bytes[this.pos++]!;
    const info = b & 0x1f;
    switch (b >> 5) {
      case 0:
        return this.argument(info, at);
      case 1: {
        const n = this.argument(info, at);
        return typeof n === 'number' ? -1 - n : -1n - n;
      }
      case 2:
        return info === 31 ? this.chunks(2, at, guide) : this.binary(this.length(info, at), at, guide);
      case 3:
        return info === 31 ? this.chunks(3, at, guide) : this.text(this.length(info, at), at);
      case 4:
        return this.array(info === 31 ? -1 : this.length(info, at), depth + 1, at, guide);
      case 5:
        return this.map(info === 31 ? -1 : this.length(info, at), depth + 1, at, guide);
      case 6:
        return this.tagged(this.argument(info, at), depth, guide, at);
      default:
        return this.simple(info, at);
    }
  }

  /** The argument of a head: in `info` itself below 24, else in the next 1, 2, 4 or 8 bytes. */
  private argument(info: number, at: number): number | bigint {
    if (info < 24) return info;
    const p = this.pos;
    switch (info) {
      case 24:
        this.need(1, at);
        this.pos += 1;
        return this.bytes[p]!;
      case 25:
        this.need(2, at);
        this.pos += 2;
        return this.view.getUint16(p);
      case 26:
        this.need(4, at);
        this.pos += 4;
        return this.view.getUint32(p);
      case 27: {
        this.need(8, at);
        this.pos += 8;
        const high = this.view.getUint32(p);
        return high < SAFE_HIGH ? high * TWO_32 + this.view.getUint32(p + 4) : this.view.getBigUint64(p);
      }
      case 31:
        return this.fail('an indefinite length is not allowed for this major type', at);
      default:
        return this.fail(`additional information ${info} is reserved`, at);
    }
  }

  /** A definite length; one too large for a number is certainly more than the input holds. */
  private length(info: number, at: number): number {
    const n = this.argument(info, at);
    if (typeof n === 'bigint') return this.fail(`truncated input: header announces a length of ${n}`, at);
    return n;
  }

  /**
   * An indefinite-length string: definite chunks of the same major type up to a break (§3.2.3).
   * Read twice: first each chunk's head, size and (for text) UTF-8 are checked and the sizes added
   * up, then the chunks are copied into one buffer, so a million empty chunks allocate nothing.
   * A text of valid chunks is valid as a whole, and decodes to the chunks' texts joined.
   */
  private chunks(major: 2 | 3, at: number, guide: Guide): string | Uint8Array {
    const first = this.pos;
    let total = 0;
    for (;;) {
      const chunkAt = this.pos;
      this.need(1, at);
      const b = this.bytes[this.pos++]!;
      if (b === BREAK) break;
      if (b >> 5 !== major || (b & 0x1f) === 31) {
        this.fail(
          `a chunk of an indefinite-length ${major === 2 ? 'byte' : 'text'} string must be a definite string of the same type`,
          chunkAt,
        );
      }
      const n = this.length(b & 0x1f, chunkAt);
      if (major === 3) this.text(n, chunkAt);
      else this.binary(n, chunkAt, IGNORE);
      total += n;
    }
    const end = this.pos;
    if (major === 2 && !this.keepBytes(guide)) return PLACEHOLDER.bytes;
    const bytes = this.bytes;
    const out = new Uint8Array(total);
    let offset = 0;
    this.pos = first;
    while (this.pos < end - 1) {
      const chunkAt = this.pos++;
      const n = this.length(bytes[chunkAt]! & 0x1f, chunkAt);
      const p = this.pos;
      if (n < 64) for (let i = 0; i < n; i++) out[offset + i] = bytes[p + i]!;
      else out.set(bytes.subarray(p, p + n), offset);
      offset += n;
      this.pos = p + n;
    }
    this.pos = end;
    if (major === 2) return out;
    return readUtf8(out, 0, total) ?? this.fail('a string is not valid UTF-8', at);
  }

  /** A map key: a text string (short ones read directly), anything else is a `type_mismatch`. */
  protected key(depth: number): string {
    const at = this.pos;
    const b = this.bytes[at]!; // value() below handles the end of input
    if (b >= 0x60 && b < 0x78) {
      this.pos++;
      return this.text(b & 0x1f, at);
    }
    const key = this.value(depth, SCALAR);
    if (typeof key !== 'string')
      throw new Failure('type_mismatch', `expected a text string map key, got ${describeValue(key)}`);
    return key;
  }

  /**
   * Tags 2 and 3 are bignums, and apply to the byte string they hold; tags 0 and 1 are timestamps,
   * and apply to the item after any further tags (a tag 1 over a bignum); any other tag leaves its
   * item as it is. `at` is where the first tag starts.
   */
  private tagged(tag: number | bigint, depth: number, guide: Guide, at: number): unknown {
    let stamp: -1 | 0 | 1 = tag === 0 || tag === 1 ? tag : -1;
    let stampAt = at;
    // Nested tags are read in a loop, so a long chain of tag heads cannot exhaust the stack.
    while (this.pos < this.end && this.bytes[this.pos]! >> 5 === 6) {
      const tagAt = this.pos++;
      tag = this.argument(this.bytes[tagAt]! & 0x1f, tagAt);
      if (tag === 0 || tag === 1) {
        if (stamp >= 0)
          this.fail(
            `a timestamp (tag ${stamp}) must hold ${stamp === 0 ? 'a text string' : 'a number'}, got tag ${tag}`,
            tagAt,
          );
        stamp = tag;
        stampAt = tagAt;
      }
    }
    const itemAt = this.pos;
    if (tag !== 2 && tag !== 3) {
      // A timestamp holds a scalar: nothing else in it is kept.
      return stamp === -1 ? this.value(depth, guide) : this.timestamp(stamp, this.value(depth, IGNORE), false, stampAt);
    }
    let n: number | bigint;
    const b = this.bytes[itemAt];
    if (b !== undefined && b >> 5 === 2 && (b & 0x1f) !== 31) {
      // A definite byte string, the usual bignum: its value is computed in place, nothing is allocated.
      this.pos++;
      const length = this.length(b & 0x1f, itemAt);
      this.announced(length, 1, 'a byte string', itemAt);
      n = bignum(this.bytes, this.pos, (this.pos += length));
    } else {
      const item = this.value(depth, BIGNUM);
      if (!(item instanceof Uint8Array))
        this.fail(`a bignum (tag ${tag}) must hold a byte string, got ${describeValue(item)}`, itemAt);
      n = bignum(item, 0, item.length);
    }
    n = tag === 2 ? n : typeof n === 'bigint' ? -1n - n : -1 - n;
    return stamp === -1 ? n : this.timestamp(stamp, n, true, stampAt);
  }

  /**
   * The `WireTimestamp` of a tag 0 or 1 holding `item` (`bignum`: an integer of a bignum tag,
   * which may be infinite when it has more bytes than a double holds); anything else is malformed.
   */
  private timestamp(tag: 0 | 1, item: unknown, bignum: boolean, at: number): WireTimestamp {
    if (tag === 0) {
      if (typeof item !== 'string')
        return this.fail(`a timestamp (tag 0) must hold a text string, got ${describeValue(item)}`, at);
      const ms = TIMESTAMP.fromText(item);
      if (ms === undefined)
        return this.fail(
          `a timestamp (tag 0) must hold RFC 3339 text, got ${JSON.stringify(item.length > 40 ? `${item.slice(0, 40)}…` : item)}`,
          at,
        );
      return new WireTimestamp(ms, item);
    }
    if (typeof item === 'bigint') return new WireTimestamp(Number(item) * 1000, `${item} seconds from the epoch`);
    if (typeof item !== 'number')
      return this.fail(`a timestamp (tag 1) must hold a number, got ${describeValue(item)}`, at);
    if (!Number.isFinite(item)) {
      // A bignum beyond every double: far outside what a Date holds.
      if (bignum && !Number.isNaN(item))
        return new WireTimestamp(item, `${item < 0 ? 'minus ' : ''}more than 2^1024 seconds from the epoch`);
      return this.fail(`a timestamp (tag 1) must hold a finite number, got ${item}`, at);
    }
    // Integers are exact seconds; a float keeps the nearest millisecond.
    return new WireTimestamp(Math.round(item * 1000), `${item} seconds from the epoch`);
  }

  /** Major type 7: false, true, null, undefined, floats; other simple values have no descriptor kind. */
  private simple(info: number, at: number): unknown {
    const p = this.pos;
    switch (info) {
      case 20:
        return false;
      case 21:
        return true;
      case 22:
        return null;
      case 23:
        return undefined;
      case 24: {
        this.need(1, at);
        const n = this.bytes[this.pos++]!;
        if (n < 32) return this.fail(`simple value ${n} must be written in one byte`, at);
        throw unsupportedSimple(n);
      }
      case 25:
        this.need(2, at);
        this.pos += 2;
        return decodeFloat16(this.view.getUint16(p));
      case 26:
        this.need(4, at);
        this.pos += 4;
        return this.view.getFloat32(p);
      case 27:
        this.need(8, at);
        this.pos += 8;
        return this.view.getFloat64(p);
      case 28:
      case 29:
      case 30:
        return this.fail(`additional information ${info} is reserved`, at);
      case 31:
        return this.fail('unexpected break (0xff) outside an indefinite-length item', at);
      default:
        throw unsupportedSimple(info);
    }
  }
}

function unsupportedSimple(n: number): Failure {
  return new Failure('type_mismatch', `expected a plain value, got the CBOR simple value ${n}`);
}

/** The unsigned integer in a bignum's bytes `start..end` (big-endian); `Infinity` beyond every double. */
function bignum(bytes: Uint8Array, start: number, end: number): bigint | number {
  while (start < end && bytes[start] === 0) start++;
  if (end - start > MAX_BIGNUM_BYTES) return Infinity;
  if (end - start <= SMALL_BIGNUM_BYTES) {
    let small = 0;
    for (let i = start; i < end; i++) small = small * 256 + bytes[i]!;
    return small;
  }
  let hex = '0x0';
  for (let i = start; i < end; i++) hex += (bytes[i]! < 16 ? '0' : '') + bytes[i]!.toString(16);
  const n = BigInt(hex);
  return n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
}
