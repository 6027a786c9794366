import { Failure, allowedText, describeValue, showValue } from '../errors/failure.ts';
import { BIGINT_RULES } from '../kinds/bigint.ts';
import { BOOL } from '../kinds/bool.ts';
import { BYTES } from '../kinds/bytes.ts';
import { FLOAT_RULES } from '../kinds/float.ts';
import { INT_RULES } from '../kinds/integer.ts';
import { STRING, loneSurrogate } from '../kinds/string.ts';
import { TIMESTAMP } from '../kinds/timestamp.ts';
import type { ConstraintRule } from '../kinds/constraints.ts';
import { discriminantValues, tupleExpected } from '../kinds/containers.ts';
import { MAX_WRITE_ITEMS, hole, tooManyItems } from './array-bounds.ts';
import type { BigIntKind, FloatKind, IntKind } from '../kinds/ranges.ts';

// Checks of values about to be written: a writer never emits what the reader would reject. Each
// scalar check is its kind's rule from core/kinds; the messages say what cannot be written.

function wrongType(expected: string, got: unknown): Failure {
  return new Failure('type_mismatch', `cannot write ${describeValue(got)} as ${expected}`);
}

/** Returns a checker for `i8` … `u32` values: integral numbers within range. */
export function intChecker(kind: IntKind): (v: unknown) => number {
  const rule = INT_RULES[kind];
  return (v) => {
    if (rule.is(v)) return v as number;
    // An integer beyond the bounds is out of range; anything else (NaN and infinities too) is no integer.
    if (typeof v !== 'number' || !Number.isInteger(v)) throw wrongType(rule.expected, v);
    throw new Failure('out_of_range', rule.outOfRange(v));
  };
}

/** Returns a checker for `i64`/`u64` values: bigints (or safe-integer numbers) within range. */
export function bigIntChecker(kind: BigIntKind): (v: unknown) => bigint {
  const rule = BIGINT_RULES[kind];
  return (v) => {
    const b = typeof v === 'bigint' ? v : Number.isSafeInteger(v) ? BigInt(v as number) : undefined;
    if (b === undefined) throw wrongType(rule.expected, v);
    if (!rule.accepts(b)) throw new Failure('out_of_range', rule.outOfRange(b));
    return b;
  };
}

/** Returns a checker for `f32`/`f64` values: finite numbers (`NaN` and infinities are refused). */
export function floatChecker(kind: FloatKind): (v: unknown) => number {
  const rule = FLOAT_RULES[kind];
  return (v) => {
    if (typeof v !== 'number') throw wrongType(rule.expected, v);
    if (!rule.accepts(v)) throw new Failure('out_of_range', rule.writeOutOfRange(v));
    return v;
  };
}

export function checkString(v: unknown): string {
  if (!STRING.is(v))
    throw typeof v === 'string'
      ? new Failure('type_mismatch', `cannot write ${loneSurrogate(v)}: it is not Unicode text`)
      : wrongType(STRING.expected, v);
  return v as string;
}

export function checkBool(v: unknown): boolean {
  if (!BOOL.is(v)) throw wrongType(BOOL.expected, v);
  return v as boolean;
}

export function checkBytes(v: unknown): Uint8Array {
  if (!BYTES.is(v)) throw wrongType(BYTES.expected, v);
  return v as Uint8Array;
}

/** Checks a value against a literal or an enum's allowed set; a value not allowed is named in the failure. */
export function oneOfChecker(allowed: readonly unknown[]): (v: unknown) => unknown {
  const set = new Set(allowed);
  const expected = allowedText(allowed);
  return (v) => {
    if (!set.has(v)) throw new Failure('type_mismatch', `cannot write ${showValue(v)} as ${expected}`);
    return v;
  };
}

/** Checks that a value can be written as an object (a record, a map, a variant): not null, no array, no bytes. */
export function checkRecord(v: unknown, expected = 'an object'): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v) || v instanceof Uint8Array) throw wrongType(expected, v);
  return v as Record<string, unknown>;
}

/** `checkRecord`'s test as JavaScript source, for generated writers: whether the identifier `v` cannot be written as an object. */
export function notRecordCode(v: string): string {
  return `typeof ${v} !== 'object' || ${v} === null || Array.isArray(${v}) || ${v} instanceof Uint8Array`;
}

/**
 * Checks that a value can be written as an array: of `length` elements for a tuple, else of
 * `MAX_WRITE_ITEMS` at most (holes are checked element by element, see `array-bounds.ts`).
 */
export function checkArray(v: unknown, length?: number): unknown[] {
  if (!Array.isArray(v)) throw wrongType(length === undefined ? 'an array' : tupleExpected(length), v);
  if (length === undefined) {
    if (v.length > MAX_WRITE_ITEMS) throw tooManyItems(v.length);
  } else if (v.length !== length) {
    throw new Failure('type_mismatch', `cannot write an array of ${v.length} elements as a tuple of ${length}`);
  }
  return v;
}

/** Element `i` of an array being written; a hole (an index never set) fails. */
export function elementAt(a: readonly unknown[], i: number): unknown {
  const x = a[i];
  if (x === undefined && !(i in a)) throw hole();
  return x;
}

/** A required member is missing from the value being written. */
export function missingMember(key: string): Failure {
  return new Failure('missing_key', 'cannot write: missing required member', key);
}

/** Checks that a value is a valid `Date` (an Invalid Date is no timestamp). */
export function checkTimestamp(v: unknown): Date {
  if (TIMESTAMP.is(v)) return v as Date;
  throw v instanceof Date
    ? new Failure('type_mismatch', `cannot write an Invalid Date as ${TIMESTAMP.expected}`)
    : wrongType(TIMESTAMP.expected, v);
}

/** RFC 3339 text of a valid `Date`, or the `out_of_range` failure of one outside years 0000-9999. */
export function timestampText(date: Date): string {
  const text = TIMESTAMP.toText(date.getTime());
  if (text === undefined) throw new Failure('out_of_range', TIMESTAMP.textOutOfRange(date));
  return text;
}

/**
 * Wraps a checker with a descriptor's constraints: the value passes the kind's check, then the
 * constraint rule (on `measure(value)`: the value, its rounding to float32, a length), which
 * fails as reading fails. Without constraints the checker is returned as it is.
 */
export function constrained<V, M>(
  check: (v: unknown) => V,
  rule: ConstraintRule<M> | undefined,
  measure: (v: V) => M,
): (v: unknown) => V {
  if (rule === undefined) return check;
  return (v) => {
    const x = check(v);
    const failure = rule.failure(measure(x));
    if (failure !== undefined) throw new Failure(failure.code, failure.detail);
    return x;
  };
}

/** Throws a constraint rule's failure, if `measured` does not pass it. */
export function checkConstraint<M>(rule: ConstraintRule<M>, measured: M): void {
  const failure = rule.failure(measured);
  if (failure !== undefined) throw new Failure(failure.code, failure.detail);
}

/** A value nested deeper than `maxDepth` containers, through `t.lazy` or `t.unknown` (a cyclic value ends here). */
export function tooDeep(maxDepth: number): Failure {
  return new Failure('limit_exceeded', `nested deeper than maxDepth (${maxDepth})`);
}

/**
 * The writer, in any format, of a container at `depth`: the one `make` gives, or, below a `t.lazy`
 * (`bounded`) and deeper than `maxDepth`, one that fails with `limit_exceeded`. Elsewhere the
 * descriptor bounds the depth, and the container is written as it is.
 */
export function containerWriter<W>(
  maxDepth: number,
  depth: number,
  bounded: boolean,
  make: () => W,
): W | (() => never) {
  if (!bounded || depth <= maxDepth) return make();
  return () => {
    throw tooDeep(maxDepth);
  };
}

/**
 * The failure of a variant's discriminant no member has, at the key: `cannot write "triangle" as
 * one of "circle", "square"`. A string is quoted, and cut at 40 characters.
 */
export function unknownDiscriminant(key: string, values: readonly unknown[], got: unknown): Failure {
  const f = new Failure('type_mismatch', `cannot write ${showValue(got)} as ${discriminantValues(values)}`);
  f.segments.push(key);
  return f;
}

/** A variant's discriminant is absent: `missing_key` at the key. */
export function missingDiscriminant(key: string): Failure {
  const f = missingMember(key);
  f.segments.push(key);
  return f;
}
