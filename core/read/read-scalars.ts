import { Failure, describeValue, quoteText } from '../errors/failure.ts';
import { BIGINT_RULES } from '../kinds/bigint.ts';
import { BOOL } from '../kinds/bool.ts';
import { BYTES } from '../kinds/bytes.ts';
import { FLOAT_RULES } from '../kinds/float.ts';
import { INT_RULES } from '../kinds/integer.ts';
import type { ConstraintRule } from '../kinds/constraints.ts';
import { STRING, loneSurrogate } from '../kinds/string.ts';
import { TIMESTAMP, WireTimestamp } from '../kinds/timestamp.ts';
import type { BigIntKind, FloatKind, IntKind } from '../kinds/ranges.ts';
import type { TreeSource, Reader } from './context.ts';
import { RawNumber, decimalToBigInt } from '../kinds/raw-number.ts';
import { BYTES_WEIGHT } from '../options.ts';

// The closure readers of the scalar kinds: each takes the forms a tree holds (numbers, bigints from
// binary formats, exact JSON tokens) and applies its kind's rules from core/kinds.

/** A `type_mismatch` failure: "expected a string, got the integer 5". */
export function mismatch(expected: string, got: unknown): Failure {
  return new Failure('type_mismatch', `expected ${expected}, got ${describeValue(got)}`);
}

/** A string that is no Unicode text (it holds a lone surrogate). */
export function notUnicode(v: string): Failure {
  return new Failure('type_mismatch', `expected Unicode text, got ${loneSurrogate(v)}`);
}

export const readString: Reader = (v) => {
  if (!STRING.is(v)) throw typeof v === 'string' ? notUnicode(v) : mismatch(STRING.expected, v);
  return v;
};

/**
 * `read` followed by the descriptor's constraints (`core/kinds/constraints.ts`), checked on the
 * value as read: a string, a number (after `f32` rounding), a bigint for `i64`/`u64`.
 */
export function constrained<V>(read: Reader, rule: ConstraintRule<V> | undefined): Reader {
  if (rule === undefined) return read;
  return (v) => {
    const value = read(v) as V;
    const failure = rule.failure(value);
    if (failure !== undefined) throw new Failure(failure.code, failure.detail);
    return value;
  };
}

export const readBool: Reader = (v) => {
  if (!BOOL.is(v)) throw mismatch(BOOL.expected, v);
  return v;
};

export const readVoid: Reader = (v) => {
  if (v !== null && v !== undefined) throw mismatch('null', v);
  return undefined;
};

/** Reads `i8` … `u32`: an integral number (or bigint, from binary formats) within the kind's range. */
export function intReader(kind: IntKind): Reader {
  const rule = INT_RULES[kind];
  const outOfRange = (shown: unknown) => new Failure('out_of_range', rule.outOfRange(String(shown)));
  return (v) => {
    if (typeof v === 'number') {
      if (rule.accepts(v)) return v;
      // An integer beyond the bounds, or an infinity, is out of range; a fraction or NaN is no integer.
      if (Number.isInteger(v) || v === Infinity || v === -Infinity) throw outOfRange(v);
      throw mismatch(rule.expected, v);
    }
    if (typeof v === 'bigint') {
      if (rule.inRange(v)) return Number(v);
      throw outOfRange(v);
    }
    if (v instanceof RawNumber) {
      if (decimalToBigInt(v.text) === undefined) throw mismatch(rule.expected, v.text);
      throw outOfRange(v.text);
    }
    throw mismatch(rule.expected, v);
  };
}

/**
 * Thrown (not a failure) when a 64-bit member of a `JSON.parse` tree holds an integer beyond
 * 2^53: its digits may be lost, so the JSON codec reads the text again with its exact parser.
 */
export class NeedsExactNumbers {}

/** A decimal integer as `t.i64({ json: 'string' })` writes it in JSON: no sign but `-`, no leading zero, no spaces. */
const DECIMAL_INTEGER = /^-?(?:0|[1-9][0-9]*)$/;
/** More digits than any 64-bit integer has (`u64`'s maximum has 20). */
const MAX_DECIMAL_DIGITS = 20;

/**
 * Reads `i64`/`u64` exactly: a safe-integer number, a bigint, or a raw JSON token. With
 * `json: 'string'`, a JSON tree may also hold the integer as a string of its decimal digits.
 */
export function bigIntReader(kind: BigIntKind, source: TreeSource, json: 'number' | 'string' = 'number'): Reader {
  const fromJsonParse = source === 'json';
  const takesText = fromJsonParse && json === 'string';
  const rule = BIGINT_RULES[kind];
  const expected = takesText ? `${rule.expected}, as a number or a string of decimal digits` : rule.expected;
  const outOfRange = (shown: unknown) => new Failure('out_of_range', rule.outOfRange(String(shown)));
  return (v) => {
    if (typeof v === 'bigint') {
      if (rule.accepts(v)) return v;
      throw outOfRange(v);
    }
    if (typeof v === 'number') {
      if (Number.isInteger(v)) {
        if (fromJsonParse && !Number.isSafeInteger(v)) throw new NeedsExactNumbers();
        const b = BigInt(v);
        if (rule.accepts(b)) return b;
        throw outOfRange(v);
      }
      if (Number.isNaN(v) || Number.isFinite(v)) throw mismatch(expected, v);
      throw outOfRange(v);
    }
    if (v instanceof RawNumber) {
      const b = decimalToBigInt(v.text);
      if (b === undefined) throw mismatch(expected, Number(v.text));
      if (b === null || !rule.accepts(b)) throw outOfRange(v.text);
      return b;
    }
    if (takesText && typeof v === 'string' && DECIMAL_INTEGER.test(v)) {
      // A long run of digits is out of range without building its bigint.
      if (v.length - (v[0] === '-' ? 1 : 0) > MAX_DECIMAL_DIGITS)
        throw outOfRange(`${quoteText(v)} (${v.length} characters)`);
      const b = BigInt(v);
      if (rule.accepts(b)) return b;
      throw outOfRange(JSON.stringify(v));
    }
    throw mismatch(expected, v);
  };
}

/** Reads `f32`/`f64`: a finite number; `f32` must be within float32 range and is rounded to it. */
export function floatReader(kind: FloatKind): Reader {
  const rule = FLOAT_RULES[kind];
  return (v) => {
    let n: number;
    if (typeof v === 'number') n = v;
    else if (typeof v === 'bigint') n = Number(v);
    else if (v instanceof RawNumber) n = Number(v.text);
    else throw mismatch(rule.expected, v);
    if (rule.accepts(n)) return rule.read(n);
    throw new Failure('out_of_range', rule.readOutOfRange(n));
  };
}

/**
 * The running JSON decode's `maxItems` budget for byte strings: what it started with, and what is
 * left. JSON carries bytes as base64 text, which this pass turns into `Uint8Array`s (each counting
 * `BYTES_WEIGHT` items, as in the binary parsers): a megabyte of `"",` would otherwise be 350,000
 * of them. Reading is synchronous and calls no user code, so the JSON decoder sets one counter for
 * each call, and every pass that reads the tree again starts it over (`restartBytesBudget`).
 */
export const textBytesBudget = { start: Infinity, left: Infinity };

/** Starts the byte-string budget over, for a pass that reads the whole tree again. */
export function restartBytesBudget(): void {
  textBytesBudget.left = textBytesBudget.start;
}

/** Reads `bytes`: a `Uint8Array`, or strict padded base64 text from JSON. */
export function bytesReader(form: TreeSource): Reader {
  if (form === 'binary') {
    return (v) => {
      if (BYTES.is(v)) return v;
      throw mismatch(BYTES.expected, v);
    };
  }
  return (v) => {
    if (typeof v !== 'string') throw mismatch(BYTES.expectedText, v);
    const bytes = BYTES.fromText(v);
    if (bytes === undefined) throw mismatch(BYTES.expectedText, v);
    if ((textBytesBudget.left -= BYTES_WEIGHT) < 0) {
      throw new Failure(
        'limit_exceeded',
        'the input holds more byte strings than maxItems allows (each counting 4 items)',
      );
    }
    return bytes;
  };
}

/**
 * Reads `t.timestamp()` as a new `Date`. A JSON tree holds RFC 3339 text; a binary tree a
 * `WireTimestamp` (which may lie outside what a `Date` holds) or, from plain JavaScript values,
 * a valid `Date`, never text.
 */
export function timestampReader(source: TreeSource): Reader {
  if (source === 'json') {
    return (v) => {
      if (typeof v === 'string') {
        const ms = TIMESTAMP.fromText(v);
        if (ms !== undefined) return new Date(ms);
        throw new Failure('type_mismatch', `expected ${TIMESTAMP.expectedText}, got ${quoteText(v)}`);
      }
      throw mismatch(TIMESTAMP.expectedText, v);
    };
  }
  return (v) => {
    if (v instanceof WireTimestamp) return dateOf(v);
    if (TIMESTAMP.is(v)) return new Date((v as Date).getTime());
    throw mismatch(TIMESTAMP.expected, v);
  };
}

/** The `Date` of a timestamp a binary parser found, or `out_of_range` when a `Date` cannot hold it. */
export function dateOf(w: WireTimestamp): Date {
  if (!TIMESTAMP.inRange(w.ms)) throw new Failure('out_of_range', TIMESTAMP.outOfRange(w.shown));
  return new Date(w.ms);
}
