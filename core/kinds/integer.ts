import { INT_RANGES, type IntKind } from './ranges.ts';
import type { JsonSchema, NumberRule } from './rule.ts';

/**
 * `t.i8()` … `t.u32()`: an integer that a `number` holds exactly, within the kind's bounds
 * (`INT_RANGES`). Readers also take a bigint or an exact JSON token holding such a value.
 */
export class IntRule implements NumberRule {
  readonly min: number;
  readonly max: number;
  readonly expected: string;

  constructor(readonly kind: IntKind) {
    [this.min, this.max] = INT_RANGES[kind];
    this.expected = `an integer (${kind})`;
  }

  is(v: unknown): boolean {
    return typeof v === 'number' && this.accepts(v);
  }

  accepts(n: number): boolean {
    return this.inRange(n) && Number.isInteger(n);
  }

  /** Within the bounds, integral or not (`NaN` is not); a bigint is compared exactly. */
  inRange(n: number | bigint): boolean {
    return n >= this.min && n <= this.max;
  }

  read(n: number): number {
    return n;
  }

  /** The `out_of_range` message of reading and writing: `65536 is outside u16 (0..65535)`. */
  outOfRange(shown: number | bigint | string): string {
    return `${shown} is outside ${this.kind} (${this.min}..${this.max})`;
  }

  isCode(x: string): string {
    return `typeof ${x} === 'number' && ${this.rangeCode(x)} && Number.isInteger(${x})`;
  }

  rangeCode(x: string): string {
    return `${x} >= ${this.min} && ${x} <= ${this.max}`;
  }

  readCode(x: string): string {
    return x;
  }

  schema(): JsonSchema {
    return { type: 'integer', minimum: this.min, maximum: this.max };
  }
}

/** The rules of each integer kind. */
export const INT_RULES: { readonly [K in IntKind]: IntRule } = {
  i8: new IntRule('i8'),
  i16: new IntRule('i16'),
  i32: new IntRule('i32'),
  u8: new IntRule('u8'),
  u16: new IntRule('u16'),
  u32: new IntRule('u32'),
};
