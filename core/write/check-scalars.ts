import { Failure, describeValue } from '../errors/failure.ts';
import { BIGINT_RANGES, INT_RANGES, MAX_F32_INPUT, type BigIntKind, type FloatKind, type IntKind } from '../types/ranges.ts';

// Checks of values about to be written: a writer never emits what the reader would reject.

function wrongType(expected: string, got: unknown): Failure {
  return new Failure('type_mismatch', `cannot write ${describeValue(got)} as ${expected}`);
}

/** Returns a checker for `i8` … `u32` values: integral numbers within range. */
export function intChecker(kind: IntKind): (v: unknown) => number {
  const [min, max] = INT_RANGES[kind];
  return (v) => {
    if (typeof v !== 'number' || !Number.isInteger(v)) throw wrongType(`an integer (${kind})`, v);
    if (v < min || v > max) throw new Failure('out_of_range', `${v} is outside ${kind} (${min}..${max})`);
    return v;
  };
}

/** Returns a checker for `i64`/`u64` values: bigints (or safe-integer numbers) within range. */
export function bigIntChecker(kind: BigIntKind): (v: unknown) => bigint {
  const [min, max] = BIGINT_RANGES[kind];
  return (v) => {
    const b = typeof v === 'bigint' ? v : Number.isSafeInteger(v) ? BigInt(v as number) : undefined;
    if (b === undefined) throw wrongType(`an integer (${kind})`, v);
    if (b < min || b > max) throw new Failure('out_of_range', `${b} is outside ${kind} (${min}..${max})`);
    return b;
  };
}

/** Returns a checker for `f32`/`f64` values: finite numbers (`NaN` and infinities are refused). */
export function floatChecker(kind: FloatKind): (v: unknown) => number {
  const limit = kind === 'f32' ? MAX_F32_INPUT : Number.MAX_VALUE;
  return (v) => {
    if (typeof v !== 'number') throw wrongType(`a number (${kind})`, v);
    if (!(v >= -limit && v <= limit)) throw new Failure('out_of_range', `${v} cannot be written as ${kind}: only finite numbers${kind === 'f32' ? ' within float32 range' : ''} can`);
    return v;
  };
}

export function checkString(v: unknown): string {
  if (typeof v !== 'string') throw wrongType('a string', v);
  return v;
}

export function checkBool(v: unknown): boolean {
  if (typeof v !== 'boolean') throw wrongType('a boolean', v);
  return v;
}

export function checkBytes(v: unknown): Uint8Array {
  if (!(v instanceof Uint8Array)) throw wrongType('bytes', v);
  return v;
}

/** Checks a value against a literal or an enum's allowed set. */
export function oneOfChecker(allowed: readonly unknown[]): (v: unknown) => unknown {
  const set = new Set(allowed);
  const expected = allowed.length === 1 ? JSON.stringify(allowed[0]) : `one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}`;
  return (v) => {
    if (!set.has(v)) throw wrongType(expected, v);
    return v;
  };
}

/** Checks that a value can be written as an object. */
export function checkRecord(v: unknown, expected = 'an object'): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v) || v instanceof Uint8Array) throw wrongType(expected, v);
  return v as Record<string, unknown>;
}

export function checkArray(v: unknown, length?: number): unknown[] {
  if (!Array.isArray(v)) throw wrongType(length === undefined ? 'an array' : `an array of ${length} elements`, v);
  if (length !== undefined && v.length !== length) throw new Failure('type_mismatch', `cannot write an array of ${v.length} elements as a tuple of ${length}`);
  return v;
}

/** A required member is missing from the value being written. */
export function missingMember(key: string): Failure {
  return new Failure('missing_key', 'cannot write: missing required member', key);
}
