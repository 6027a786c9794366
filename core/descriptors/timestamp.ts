import { Type } from './type.ts';

/**
 * A point in time, read as a `Date` (millisecond precision): an RFC 3339 string in JSON, the
 * timestamp extension (-1) in MessagePack, tag 1 (epoch seconds) in CBOR. Absent keys default to
 * the epoch, `new Date(0)`.
 */
export class TimestampType extends Type<Date> {
  readonly kind = 'timestamp';
}
