// The check a writer runs on a value of one descriptor: its kind's check, then the descriptor's
// constraints (`minLength`, `minimum`, `maxItems`…), stated once for every writer.
import { arrayRule, numberRule, stringRule } from '../kinds/constraints.ts';
import type { ArrayType, BigIntType, FloatType, IntType, StringType } from '../descriptors/index.ts';
import { bigIntChecker, checkArray, checkString, constrained, floatChecker, intChecker } from './check-scalars.ts';

const same = <V>(v: V) => v;

export function stringChecker(d: StringType): (v: unknown) => string {
  return constrained(checkString, d.constraints && stringRule(d.constraints), same);
}

export function intCheckerOf(d: IntType): (v: unknown) => number {
  return constrained(intChecker(d.kind), d.constraints && numberRule(d.constraints), same);
}

export function bigIntCheckerOf(d: BigIntType): (v: unknown) => bigint {
  return constrained(bigIntChecker(d.kind), d.constraints && numberRule(d.constraints), same);
}

/** `f32` bounds hold for the value as read back: rounded to float32. */
export function floatCheckerOf(d: FloatType): (v: unknown) => number {
  return constrained(
    floatChecker(d.kind),
    d.constraints && numberRule(d.constraints),
    d.kind === 'f32' ? Math.fround : same,
  );
}

/** An array's length against `minItems`/`maxItems`, checked before any element is written. */
export function arrayChecker(d: ArrayType): (v: unknown) => unknown[] {
  return constrained(checkArray, d.constraints && arrayRule(d.constraints), (a) => a.length);
}
