import { MAX_F32_INPUT, type FloatKind } from './ranges.ts';
import type { NumberRule } from './rule.ts';

/** The rules of `f32` and `f64`, with the two `out_of_range` messages, which differ by direction. */
export interface FloatRule extends NumberRule {
  readonly kind: FloatKind;
  /** Reading a number beyond the bounds: `1e39 is outside f32: it would round to infinity`. */
  readOutOfRange(n: number): string;
  /** Writing one: `Infinity cannot be written as f64: only finite numbers can`. */
  writeOutOfRange(n: number): string;
}

/**
 * `t.f32()`: any number that rounds to a finite float32, that is |n| ≤ `MAX_F32_INPUT` (not only
 * float32 values: `0.1` is taken), read rounded to float32.
 */
export const F32: FloatRule = {
  kind: 'f32',
  expected: 'a number (f32)',
  is: (v) => typeof v === 'number' && F32.accepts(v),
  accepts: (n) => n >= -MAX_F32_INPUT && n <= MAX_F32_INPUT,
  read: (n) => Math.fround(n),
  isCode: (x) => `typeof ${x} === 'number' && ${F32.rangeCode(x)}`,
  rangeCode: (x) => `${x} >= ${-MAX_F32_INPUT} && ${x} <= ${MAX_F32_INPUT}`,
  readCode: (x) => `Math.fround(${x})`,
  readOutOfRange: (n) => `${n} is outside f32: it would round to infinity`,
  writeOutOfRange: (n) => `${n} cannot be written as f32: only finite numbers within float32 range can`,
  schema: () => ({ type: 'number', minimum: -MAX_F32_INPUT, maximum: MAX_F32_INPUT }),
};

/** `t.f64()`: any finite number (`NaN` and the infinities are refused). */
export const F64: FloatRule = {
  kind: 'f64',
  expected: 'a number (f64)',
  is: (v) => typeof v === 'number' && F64.accepts(v),
  // Finite exactly when subtracting it from itself gives 0 (NaN and infinities give NaN).
  accepts: (n) => n - n === 0,
  read: (n) => n,
  isCode: (x) => `typeof ${x} === 'number' && ${F64.rangeCode(x)}`,
  rangeCode: (x) => `${x} - ${x} === 0`,
  readCode: (x) => x,
  readOutOfRange: (n) => `${n} is not a finite f64`,
  writeOutOfRange: (n) => `${n} cannot be written as f64: only finite numbers can`,
  schema: () => ({ type: 'number' }),
};

/** The rules of each float kind. */
export const FLOAT_RULES: { readonly [K in FloatKind]: FloatRule } = { f32: F32, f64: F64 };
