// The bounds keywords of the number kinds with their constraints, stated so that a validator
// working on doubles (any JSON Schema validator) accepts a number exactly when lacquer does:
// - `f32` constraints are checked on the value rounded to float32, so a bound becomes the double
//   where rounding crosses it;
// - `i64`/`u64` bounds are exact integers, and lacquer compares the integer a number's text
//   states, so a bound becomes the last double whose shortest text is still inside it.

import { SCALAR_RULES, withNumberConstraints } from '../kinds/index.ts';
import type { NumberConstraints } from '../kinds/constraint-options.ts';
import { BIGINT_RANGES, MAX_F32_INPUT, type BigIntKind, type FloatKind, type IntKind } from '../kinds/ranges.ts';
import type { JsonSchema } from './schema-target.ts';

/**
 * How a 64-bit bound is written as a double: `'text'` for numbers whose JSON text a reader compares
 * exactly (what a body sends), `'nearest'` for numbers a validator sees after parsing lacquer's
 * exact text into a double (what an answer carries: the double an in-range integer rounds to).
 */
export type BigIntRounding = 'text' | 'nearest';

/** The schema of `i8` … `u32`, `f32`, `f64` with their constraints: `type`, kind bounds, constraint bounds. */
export function numberSchema(kind: IntKind | FloatKind, c: NumberConstraints<number | bigint> | undefined): JsonSchema {
  const own = SCALAR_RULES[kind].schema();
  if (c === undefined) return own;
  return withNumberConstraints(own, kind === 'f32' ? f32Bounds(c as NumberConstraints) : c);
}

/** The exact range of a 64-bit descriptor: its kind's bounds narrowed by its constraints. */
export function bigIntRange(kind: BigIntKind, c: NumberConstraints<bigint> | undefined): [bigint, bigint] {
  let [low, high] = BIGINT_RANGES[kind];
  if (c !== undefined) {
    const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = c;
    if (minimum !== undefined && minimum > low) low = minimum;
    if (exclusiveMinimum !== undefined && exclusiveMinimum + 1n > low) low = exclusiveMinimum + 1n;
    if (maximum !== undefined && maximum < high) high = maximum;
    if (exclusiveMaximum !== undefined && exclusiveMaximum - 1n < high) high = exclusiveMaximum - 1n;
  }
  return [low, high];
}

/** `minimum` and `maximum` (doubles) of the integers `low..high`, rounded as `rounding` says. */
export function bigIntBounds(
  low: bigint,
  high: bigint,
  rounding: BigIntRounding,
): { minimum: number; maximum: number } {
  return rounding === 'nearest'
    ? { minimum: Number(low), maximum: Number(high) }
    : { minimum: doubleAtLeast(low), maximum: doubleAtMost(high) };
}

// ---- 64-bit bounds as doubles -------------------------------------------------------------------

const f64 = new Float64Array(1);
const f64Bits = new BigInt64Array(f64.buffer);

/** The next double above a finite `x`. */
function nextUp(x: number): number {
  if (x === 0) return Number.MIN_VALUE;
  f64[0] = x;
  f64Bits[0]! += x > 0 ? 1n : -1n;
  return f64[0];
}

const nextDown = (x: number): number => -nextUp(-x);

/** The integer the JSON text of an integral double states (`2 ** 60` is written `1152921504606847000`). */
function textInteger(x: number): bigint {
  const text = JSON.stringify(x);
  return /^-?\d+$/.test(text) ? BigInt(text) : BigInt(x);
}

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** The largest double whose JSON text states an integer `<= b`. Beyond 2^53 every double is an integer. */
export function doubleAtMost(b: bigint): number {
  let x = Number(b);
  if (b >= -SAFE && b <= SAFE) return x;
  while (textInteger(x) > b) x = nextDown(x);
  while (textInteger(nextUp(x)) <= b) x = nextUp(x);
  return x;
}

/** The smallest double whose JSON text states an integer `>= b`. */
export function doubleAtLeast(b: bigint): number {
  return 0 - doubleAtMost(-b); // 0 - x: never -0
}

// ---- f32 bounds ---------------------------------------------------------------------------------

const f32 = new Float32Array(1);
const f32Bits = new Uint32Array(f32.buffer);

/** The next float32 above a float32 `m` (`Infinity` above the largest). */
function nextUp32(m: number): number {
  if (m === 0) return 2 ** -149;
  f32[0] = m;
  f32Bits[0]! += m > 0 ? 1 : -1;
  return f32[0] === 0 ? 0 : f32[0];
}

const nextDown32 = (m: number): number => -nextUp32(-m);

/** Whether float32 `m` has an even significand: a tie between it and a neighbour rounds to it. */
function isEven32(m: number): boolean {
  f32[0] = m;
  return (f32Bits[0]! & 1) === 0;
}

/**
 * `f32`'s constraints as bounds on the number before rounding: `Math.fround(n) <= m` exactly when
 * `n` is below the midpoint between `m` and the next float32 (or on it, when a tie rounds to `m`).
 * A bound past the largest float32 is left to the kind's own.
 */
function f32Bounds(c: NumberConstraints): NumberConstraints {
  const out: { -readonly [K in keyof NumberConstraints]: number } = {};
  const upper = (m: number) => {
    if (m === -Infinity) {
      out.exclusiveMaximum = -MAX_F32_INPUT;
      return;
    }
    const next = nextUp32(m);
    if (next === Infinity) return;
    const mid = (m + next) / 2;
    if (isEven32(m)) out.maximum = Math.min(out.maximum ?? Infinity, mid);
    else out.exclusiveMaximum = Math.min(out.exclusiveMaximum ?? Infinity, mid);
  };
  const lower = (m: number) => {
    if (m === Infinity) {
      out.exclusiveMinimum = MAX_F32_INPUT;
      return;
    }
    const previous = nextDown32(m);
    if (previous === -Infinity) return;
    const mid = (previous + m) / 2;
    if (isEven32(m)) out.minimum = Math.max(out.minimum ?? -Infinity, mid);
    else out.exclusiveMinimum = Math.max(out.exclusiveMinimum ?? -Infinity, mid);
  };
  // The float32 values reading compares: the last one within an upper bound, the first within a lower.
  if (c.maximum !== undefined) {
    const m = Math.fround(c.maximum);
    upper(m > c.maximum ? nextDown32(m) : m);
  }
  if (c.exclusiveMaximum !== undefined) {
    const m = Math.fround(c.exclusiveMaximum);
    upper(m >= c.exclusiveMaximum ? nextDown32(m) : m);
  }
  if (c.minimum !== undefined) {
    const m = Math.fround(c.minimum);
    lower(m < c.minimum ? nextUp32(m) : m);
  }
  if (c.exclusiveMinimum !== undefined) {
    const m = Math.fround(c.exclusiveMinimum);
    lower(m <= c.exclusiveMinimum ? nextUp32(m) : m);
  }
  return out;
}
