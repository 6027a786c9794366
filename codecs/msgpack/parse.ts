import { Failure, describeValue } from '../../core/errors/failure.ts';
import { WireTimestamp } from '../../core/kinds/timestamp.ts';
import type { Type } from '../../core/descriptors/type.ts';
import { ByteCursor } from '../binary/cursor.ts';
import { SCALAR, guideOf, type Guide } from '../binary/guide.ts';

const TWO_32 = 4294967296;
/** A 64-bit integer whose high word is within ±2^21 is below 2^53 in magnitude: a number holds it. */
const SAFE_HIGH = 0x200000;

/**
 * Parses one MessagePack value into the tree the read pass checks: maps become plain objects
 * with string keys, bin becomes `Uint8Array`, integers beyond 2^53 become `bigint`, the
 * timestamp extension (-1) a `WireTimestamp`; other extension types are a `type_mismatch`. Given the
 * descriptor `type`, it builds only what the read pass can take, and counts what it builds
 * against `maxItems` (see `ByteCursor`).
 */
export function parseMsgpack(bytes: Uint8Array, maxDepth: number, type?: Type, maxItems?: number): unknown {
  const parser = new MsgpackParser(bytes, maxDepth, 'MessagePack', maxItems);
  const value = parser.value(0, guideOf(type));
  parser.finish();
  return value;
}

class MsgpackParser extends ByteCursor {
  /** One value; `depth` is the nesting of the container holding it (0 at the root). */
  value(depth: number, guide: Guide): unknown {
    const at = this.pos;
    if (at >= this.end) this.fail(at === 0 ? 'no data' : 'truncated input: a value is missing');
    const b = this.bytes[this.pos++]!;
    if (b < 0x80) return b; // positive fixint 0xxxxxxx
    if (b >= 0xe0) return b - 0x100; // negative fixint 111xxxxx
    if (b < 0x90) return this.map(b & 0x0f, depth + 1, at, guide); // fixmap 1000xxxx
    if (b < 0xa0) return this.array(b & 0x0f, depth + 1, at, guide); // fixarray 1001xxxx
    if (b < 0xc0) return this.text(b & 0x1f, at); // fixstr 101xxxxx
    const view = this.view;
    switch (b) {
      case 0xc0:
        return null;
      case 0xc1:
        return this.fail('0xc1 is reserved and never used', at);
      case 0xc2:
        return false;
      case 0xc3:
        return true;
      case 0xc4:
        return this.binary(this.uint(1), at, guide); // bin 8
      case 0xc5:
        return this.binary(this.uint(2), at, guide); // bin 16
      case 0xc6:
        return this.binary(this.uint(4), at, guide); // bin 32
      case 0xc7:
        return this.extension(this.uint(1), at); // ext 8
      case 0xc8:
        return this.extension(this.uint(2), at); // ext 16
      case 0xc9:
        return this.extension(this.uint(4), at); // ext 32
      case 0xca:
        this.need(4);
        return view.getFloat32((this.pos += 4) - 4); // float 32
      case 0xcb:
        this.need(8);
        return view.getFloat64((this.pos += 8) - 8); // float 64
      case 0xcc:
        return this.uint(1); // uint 8
      case 0xcd:
        return this.uint(2); // uint 16
      case 0xce:
        return this.uint(4); // uint 32
      case 0xcf:
        return this.uint64(); // uint 64
      case 0xd0:
        this.need(1);
        return view.getInt8(this.pos++); // int 8
      case 0xd1:
        this.need(2);
        return view.getInt16((this.pos += 2) - 2); // int 16
      case 0xd2:
        this.need(4);
        return view.getInt32((this.pos += 4) - 4); // int 32
      case 0xd3:
        return this.int64(); // int 64
      case 0xd4:
      case 0xd5:
      case 0xd6:
      case 0xd7:
      case 0xd8:
        return this.extension(1 << (b - 0xd4), at); // fixext 1-16
      case 0xd9:
        return this.text(this.uint(1), at); // str 8
      case 0xda:
        return this.text(this.uint(2), at); // str 16
      case 0xdb:
        return this.text(this.uint(4), at); // str 32
      case 0xdc:
        return this.array(this.uint(2), depth + 1, at, guide); // array 16
      case 0xdd:
        return this.array(this.uint(4), depth + 1, at, guide); // array 32
      case 0xde:
        return this.map(this.uint(2), depth + 1, at, guide); // map 16
      default:
        return this.map(this.uint(4), depth + 1, at, guide); // map 32 (0xdf)
    }
  }

  /** A big-endian unsigned integer of 1, 2 or 4 bytes. */
  private uint(size: 1 | 2 | 4): number {
    this.need(size);
    const p = this.pos;
    this.pos += size;
    return size === 1 ? this.bytes[p]! : size === 2 ? this.view.getUint16(p) : this.view.getUint32(p);
  }

  private uint64(): number | bigint {
    this.need(8);
    const p = this.pos;
    this.pos += 8;
    const high = this.view.getUint32(p);
    return high < SAFE_HIGH ? high * TWO_32 + this.view.getUint32(p + 4) : this.view.getBigUint64(p);
  }

  private int64(): number | bigint {
    this.need(8);
    const p = this.pos;
    this.pos += 8;
    const high = this.view.getInt32(p);
    return high >= -SAFE_HIGH && high < SAFE_HIGH
      ? high * TWO_32 + this.view.getUint32(p + 4)
      : this.view.getBigInt64(p);
  }

  /**
   * An extension of `size` bytes: the timestamp extension (-1) in its three forms, 4 bytes
   * (seconds, u32), 8 (nanoseconds in the top 30 bits, seconds in the low 34) and 12 (nanoseconds,
   * u32, then seconds, i64), as a `WireTimestamp` (milliseconds, finer digits dropped); any other
   * size, or nanoseconds above 999999999, is malformed. Application types have no descriptor kind.
   */
  private extension(size: number, at: number): unknown {
    this.need(1);
    const type = this.view.getInt8(this.pos);
    if (type !== -1)
      throw new Failure(
        'type_mismatch',
        `expected a plain value, got a MessagePack extension type ${type} (${size} byte(s), offset ${at})`,
      );
    this.pos++;
    this.need(size, at);
    const p = this.pos;
    this.pos += size;
    const view = this.view;
    let nanos = 0;
    let seconds: number | bigint;
    switch (size) {
      case 4:
        seconds = view.getUint32(p);
        break;
      case 8: {
        const high = view.getUint32(p);
        nanos = high >>> 2;
        seconds = (high & 3) * TWO_32 + view.getUint32(p + 4);
        break;
      }
      case 12: {
        nanos = view.getUint32(p);
        const high = view.getInt32(p + 4);
        seconds =
          high >= -SAFE_HIGH && high < SAFE_HIGH ? high * TWO_32 + view.getUint32(p + 8) : view.getBigInt64(p + 4);
        break;
      }
      default:
        return this.fail(`a timestamp (extension -1) holds 4, 8 or 12 bytes, not ${size}`, at);
    }
    if (nanos > 999_999_999) this.fail(`a timestamp (extension -1) has ${nanos} nanoseconds, more than 999999999`, at);
    const ms = Number(seconds) * 1000 + Math.floor(nanos / 1e6);
    return new WireTimestamp(ms, `${seconds} seconds${nanos === 0 ? '' : ` and ${nanos} nanoseconds`} from the epoch`);
  }

  /** A map key: a string (fixstr read directly), anything else is a `type_mismatch`. */
  protected key(depth: number): string {
    const at = this.pos;
    const b = this.bytes[at]!; // value() below handles the end of input
    if (b >= 0xa0 && b < 0xc0) {
      this.pos++;
      return this.text(b & 0x1f, at);
    }
    const key = this.value(depth, SCALAR);
    if (typeof key !== 'string')
      throw new Failure('type_mismatch', `expected a string map key, got ${describeValue(key)}`);
    return key;
  }
}
