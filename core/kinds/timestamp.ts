import type { ScalarRule } from './rule.ts';
import { DATE_TIME_TEXT_RANGE, dateTimeMillis, formatDateTime } from './formats.ts';

/** The largest distance from the epoch a `Date` holds, in milliseconds (ECMA-262's time value range). */
export const MAX_DATE_MS = 8.64e15;

/**
 * A timestamp as a binary tree parser found it (MessagePack's extension -1, CBOR's tags 1 and 0),
 * before the read pass turns it into a `Date`: milliseconds since the epoch, which may lie outside
 * what a `Date` holds (a MessagePack timestamp reaches ±2^63 seconds), and how to show it in an
 * `out_of_range` message.
 */
export class WireTimestamp {
  constructor(
    readonly ms: number,
    /** `-9223372036854775808 seconds from the epoch` */
    readonly shown: string,
  ) {}
}

/**
 * `t.timestamp()`: a valid `Date` (not an Invalid Date). JSON carries RFC 3339 text (years 0000 to
 * 9999, at an offset of up to ±23:59); reading keeps milliseconds and drops finer fractions.
 */
export const TIMESTAMP: ScalarRule & {
  /** What a `type_mismatch` names as expected in a JSON tree. */
  readonly expectedText: string;
  /** Milliseconds since the epoch of RFC 3339 text, or `undefined` when it is not one. */
  fromText(text: string): number | undefined;
  /** RFC 3339 text (in UTC within years 0000-9999, else at an offset), or `undefined` for an instant no RFC 3339 text holds. */
  toText(ms: number): string | undefined;
  /** Whether `ms` is an instant a `Date` holds. */
  inRange(ms: number): boolean;
  /** The `out_of_range` message of an instant a `Date` cannot hold. */
  outOfRange(shown: string): string;
  /** The `out_of_range` message of writing, as JSON, a date RFC 3339 cannot write. */
  textOutOfRange(date: Date): string;
} = {
  expected: 'a timestamp (a valid Date)',
  expectedText: 'an RFC 3339 date-time',
  is: (v) => v instanceof Date && !Number.isNaN(v.getTime()),
  isCode: (x) => `(${x} instanceof Date && ${x}.getTime() === ${x}.getTime())`,
  schema: () => ({ type: 'string', format: 'date-time' }),
  fromText: dateTimeMillis,
  toText: formatDateTime,
  inRange: (ms) => ms >= -MAX_DATE_MS && ms <= MAX_DATE_MS,
  outOfRange: (shown) => `${shown} is outside the range of a Date (±8.64e15 ms from the epoch)`,
  textOutOfRange: (date) =>
    `${date.getUTCFullYear()}-${date.getUTCMonth() + 1}-${date.getUTCDate()} cannot be written as RFC 3339 text, which has years 0000 to 9999 at offsets up to ±23:59 (${DATE_TIME_TEXT_RANGE.join('..')} ms)`,
};
