import { Failure, describeValue } from '../../core/errors/failure.ts';
import { ByteCursor } from '../binary/cursor.ts';
import { decodeFloat16 } from './float16.ts';

const TWO_32 = 4294967296;
/** A 64-bit argument whose high word is below 2^21 is below 2^53: a number holds it. */
const SAFE_HIGH = 0x200000;
/** A bignum longer than this is beyond every finite double (2^1024 needs 129 bytes). */
const MAX_BIGNUM_BYTES = 128;
const BREAK = 0xff;

/**
 * Parses one CBOR data item into the tree the read pass checks: maps become plain objects with
 * text keys, byte strings `Uint8Array`, integers beyond 2^53 and bignums (tags 2 and 3)
 * `bigint`, `undefined` stays `undefined`. Other tags are transparent: the tagged item is read
 * as if untagged (a tag 0 date string is a string). Indefinite lengths are accepted.
 */
export function parseCbor(bytes: Uint8Array, maxDepth: number): unknown {
  const parser = new CborParser(bytes, maxDepth, 'CBOR');
  const value = parser.value(0);
  parser.finish();
  return value;
}

class CborParser extends ByteCursor {
  /** One data item; `depth` is the nesting of the container holding it (0 at the root). */
  value(depth: number): unknown {
    const at = this.pos;
    if (at >= this.end) this.fail(at === 0 ? 'no data' : 'truncated input: a data item is missing');
    const b = this.bytes[this.pos++]!;
    const info = b & 0x1f;
    switch (b >> 5) {
      case 0: return this.argument(info, at);
      case 1: {
        const n = this.argument(info, at);
        return typeof n === 'number' ? -1 - n : -1n - n;
      }
      case 2: return info === 31 ? this.chunks(2, at) : this.binary(this.length(info, at), at);
      case 3: return info === 31 ? this.chunks(3, at) : this.text(this.length(info, at), at);
      case 4: return info === 31 ? this.indefiniteArray(depth + 1) : this.array(this.length(info, at), depth + 1, at);
      case 5: return info === 31 ? this.indefiniteMap(depth + 1) : this.map(this.length(info, at), depth + 1, at);
      case 6: return this.tagged(this.argument(info, at), depth);
      default: return this.simple(info, at);
    }
  }

  /** The argument of a head: in `info` itself below 24, else in the next 1, 2, 4 or 8 bytes. */
  private argument(info: number, at: number): number | bigint {
    if (info < 24) return info;
    const p = this.pos;
    switch (info) {
      case 24: this.need(1, at); this.pos += 1; return this.bytes[p]!;
      case 25: this.need(2, at); this.pos += 2; return this.view.getUint16(p);
      case 26: this.need(4, at); this.pos += 4; return this.view.getUint32(p);
      case 27: {
        this.need(8, at);
        this.pos += 8;
        const high = this.view.getUint32(p);
        return high < SAFE_HIGH ? high * TWO_32 + this.view.getUint32(p + 4) : this.view.getBigUint64(p);
      }
      case 31: return this.fail('an indefinite length is not allowed for this major type', at);
      default: return this.fail(`additional information ${info} is reserved`, at);
    }
  }

  /** A definite length; one too large for a number is certainly more than the input holds. */
  private length(info: number, at: number): number {
    const n = this.argument(info, at);
    if (typeof n === 'bigint') return this.fail(`truncated input: header announces a length of ${n}`, at);
    return n;
  }

  /** An indefinite-length string: definite chunks of the same major type up to a break (§3.2.3). */
  private chunks(major: 2 | 3, at: number): string | Uint8Array {
    const parts: (string | Uint8Array)[] = [];
    for (;;) {
      const chunkAt = this.pos;
      this.need(1, at);
      const b = this.bytes[this.pos++]!;
      if (b === BREAK) break;
      if (b >> 5 !== major || (b & 0x1f) === 31) {
        this.fail(`a chunk of an indefinite-length ${major === 2 ? 'byte' : 'text'} string must be a definite string of the same type`, chunkAt);
      }
      const n = this.length(b & 0x1f, chunkAt);
      parts.push(major === 2 ? this.binary(n, chunkAt) : this.text(n, chunkAt));
    }
    if (major === 3) return (parts as string[]).join('');
    const out = new Uint8Array((parts as Uint8Array[]).reduce((sum, p) => sum + p.length, 0));
    let offset = 0;
    for (const p of parts as Uint8Array[]) {
      out.set(p, offset);
      offset += p.length;
    }
    return out;
  }

  private indefiniteArray(depth: number): unknown[] {
    this.enter(depth);
    return this.items(depth, () => !this.atBreak());
  }

  private indefiniteMap(depth: number): Record<string, unknown> {
    this.enter(depth);
    return this.entries(depth, () => !this.atBreak());
  }

  private atBreak(): boolean {
    if (this.pos >= this.end) this.fail('truncated input: an indefinite-length item has no break');
    if (this.bytes[this.pos] !== BREAK) return false;
    this.pos++;
    return true;
  }

  /** A map key: a text string (short ones read directly), anything else is a `type_mismatch`. */
  protected key(depth: number): string {
    const at = this.pos;
    const b = this.bytes[at]!; // value() below handles the end of input
    if (b >= 0x60 && b < 0x78) {
      this.pos++;
      return this.text(b & 0x1f, at);
    }
    const key = this.value(depth);
    if (typeof key !== 'string') throw new Failure('type_mismatch', `expected a text string map key, got ${describeValue(key)}`);
    return key;
  }

  /** Tags 2 and 3 are bignums; any other tag (nested tags too) leaves its item as it is. */
  private tagged(tag: number | bigint, depth: number): unknown {
    // Nested tags are read in a loop, so a long chain of tag heads cannot exhaust the stack.
    while (this.pos < this.end && this.bytes[this.pos]! >> 5 === 6) {
      const at = this.pos++;
      tag = this.argument(this.bytes[at]! & 0x1f, at);
    }
    const at = this.pos;
    const item = this.value(depth);
    if (tag !== 2 && tag !== 3) return item;
    if (!(item instanceof Uint8Array)) this.fail(`a bignum (tag ${tag}) must hold a byte string, got ${describeValue(item)}`, at);
    const n = bignum(item);
    return tag === 2 ? n : typeof n === 'bigint' ? -1n - n : -1 - n;
  }

  /** Major type 7: false, true, null, undefined, floats; other simple values have no descriptor kind. */
  private simple(info: number, at: number): unknown {
    const p = this.pos;
    switch (info) {
      case 20: return false;
      case 21: return true;
      case 22: return null;
      case 23: return undefined;
      case 24: {
        this.need(1, at);
        const n = this.bytes[this.pos++]!;
        if (n < 32) return this.fail(`simple value ${n} must be written in one byte`, at);
        throw unsupportedSimple(n);
      }
      case 25: this.need(2, at); this.pos += 2; return decodeFloat16(this.view.getUint16(p));
      case 26: this.need(4, at); this.pos += 4; return this.view.getFloat32(p);
      case 27: this.need(8, at); this.pos += 8; return this.view.getFloat64(p);
      case 28: case 29: case 30: return this.fail(`additional information ${info} is reserved`, at);
      case 31: return this.fail('unexpected break (0xff) outside an indefinite-length item', at);
      default: throw unsupportedSimple(info);
    }
  }
}

function unsupportedSimple(n: number): Failure {
  return new Failure('type_mismatch', `expected a plain value, got the CBOR simple value ${n}`);
}

/** The unsigned integer in a bignum's bytes (big-endian); `Infinity` beyond every double. */
function bignum(bytes: Uint8Array): bigint | number {
  let start = 0;
  while (start < bytes.length && bytes[start] === 0) start++;
  if (bytes.length - start > MAX_BIGNUM_BYTES) return Infinity;
  let hex = '0x0';
  for (let i = start; i < bytes.length; i++) hex += (bytes[i]! < 16 ? '0' : '') + bytes[i]!.toString(16);
  const n = BigInt(hex);
  return n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
}
