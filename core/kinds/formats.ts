// The string formats of `t.string({ format })` and the RFC 3339 date-time of `t.timestamp()`.
// Each is the definition ajv-formats gives in its full mode (copied, so that "a JSON Schema
// validator accepts it" and "lacquer accepts it" agree), with what lacquer adds: reading a
// date-time as milliseconds since the epoch, and writing one.

import type { StringFormat } from './constraint-options.ts';

const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

const UUID = /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;

const NOT_URI_FRAGMENT = /\/|:/;
const URI =
  /^(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$/i;

/** Whether `s` is a value of `format`. */
export const FORMATS: { readonly [F in StringFormat]: (s: string) => boolean } = {
  email: (s) => EMAIL.test(s),
  uuid: (s) => UUID.test(s),
  uri: (s) => NOT_URI_FRAGMENT.test(s) && URI.test(s),
  'date-time': (s) => dateTimeMillis(s) !== undefined,
};

/** What an `invalid_format` message calls a value of each format. */
export const FORMAT_NAMES: { readonly [F in StringFormat]: string } = {
  email: 'an email address',
  uuid: 'a UUID',
  uri: 'an absolute URI',
  'date-time': 'an RFC 3339 date-time',
};

const DATE_TIME = /^(\d\d\d\d)-(\d\d)-(\d\d)[t\s](\d\d):(\d\d):(\d\d)(\.\d+)?(z|([+-])(\d\d)(?::?(\d\d))?)$/i;
const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/**
 * The instant an RFC 3339 date-time names, in milliseconds since the epoch, or `undefined` when
 * the text is not one. Accepts what ajv-formats' `date-time` accepts: `T` or a space (any case)
 * between date and time, any number of fraction digits (read to the millisecond, the rest
 * dropped), `Z` or an offset (`+01:00`, `+0100`, `+01`), and a leap second (`23:59:60` in UTC),
 * which is read as the second after it.
 */
export function dateTimeMillis(s: string): number | undefined {
  const m = DATE_TIME.exec(s);
  if (m === null) return undefined;
  const year = +m[1]!;
  const month = +m[2]!;
  const day = +m[3]!;
  const hour = +m[4]!;
  const minute = +m[5]!;
  const second = +m[6]!;
  if (month < 1 || month > 12 || day < 1 || day > (month === 2 && isLeapYear(year) ? 29 : DAYS[month]!))
    return undefined;
  const sign = m[9] === '-' ? -1 : 1;
  const offsetHours = +(m[10] ?? 0);
  const offsetMinutes = +(m[11] ?? 0);
  if (offsetHours > 23 || offsetMinutes > 59) return undefined;
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  if (second === 60) {
    // A leap second is the last second of a UTC day: 23:59:60Z, or the same instant at an offset.
    const utcMinute = minute - offsetMinutes * sign;
    const utcHour = hour - offsetHours * sign - (utcMinute < 0 ? 1 : 0);
    if (!((utcHour === 23 || utcHour === -1) && (utcMinute === 59 || utcMinute === -1))) return undefined;
  }
  const fraction = m[7] === undefined ? 0 : Math.floor(Number(`0${m[7].slice(0, 4)}`) * 1000);
  // Date.UTC takes years 0-99 as 1900-1999: the date is set apart, then the time, which may roll a
  // leap second over into the next day (and year).
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, fraction);
  return date.getTime() - sign * (offsetHours * 60 + offsetMinutes) * 60_000;
}

/** The earliest and latest instants of years 0000 to 9999 in UTC, in milliseconds. */
export const DATE_TIME_RANGE: readonly [number, number] = [-62167219200000, 253402300799999];

/** The largest offset RFC 3339 text takes (and `dateTimeMillis` reads): ±23:59. */
const MAX_OFFSET_MINUTES = 23 * 60 + 59;

/**
 * The earliest and latest instants RFC 3339 text can hold: years 0000 to 9999 at an offset of up
 * to ±23:59 (`0000-01-01T00:00:00+23:59`, `9999-12-31T23:59:59.999-23:59`), in milliseconds.
 */
export const DATE_TIME_TEXT_RANGE: readonly [number, number] = [
  DATE_TIME_RANGE[0] - MAX_OFFSET_MINUTES * 60_000,
  DATE_TIME_RANGE[1] + MAX_OFFSET_MINUTES * 60_000,
];

/**
 * An instant as RFC 3339 text with milliseconds: in UTC (`2024-05-01T12:00:00.000Z`) within years
 * 0000 to 9999, else at the smallest offset in whole minutes that brings its local time within them
 * (`9999-12-31T23:59:00.000-00:01` for the first millisecond of the year 10000, which a leap
 * second `9999-12-31T23:59:60Z` reads as); `undefined` when no offset reaches, which RFC 3339
 * cannot write. Every instant `dateTimeMillis` reads is written, and reads back the same.
 */
export function formatDateTime(ms: number): string | undefined {
  const [first, last] = DATE_TIME_RANGE;
  if (ms >= first && ms <= last) return new Date(ms).toISOString();
  if (!(ms >= DATE_TIME_TEXT_RANGE[0] && ms <= DATE_TIME_TEXT_RANGE[1])) return undefined;
  // West of UTC (a `-` offset) for an instant past 9999, east (`+`) for one before 0000.
  const late = ms > last;
  const minutes = Math.ceil((late ? ms - last : first - ms) / 60_000);
  const local = new Date(late ? ms - minutes * 60_000 : ms + minutes * 60_000).toISOString().slice(0, -1);
  return `${local}${late ? '-' : '+'}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}
