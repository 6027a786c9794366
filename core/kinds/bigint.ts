import { BIGINT_RANGES, type BigIntKind } from './ranges.ts';
import type { JsonSchema, ScalarRule } from './rule.ts';

/**
 * 64-bit bounds as doubles whose shortest decimal form stays inside the exact range. A schema
 * object holds doubles: `2^64 - 1` would round up to `2^64` and admit an invalid value, and
 * `-2^63` prints as `-9223372036854776000`, which is below `i64`'s minimum. With these bounds a
 * validator working on doubles accepts a number exactly when lacquer accepts its JSON text.
 */
const SCHEMA_BOUNDS: { readonly [K in BigIntKind]: readonly [number, number] } = {
  i64: [-(2 ** 63 - 1024), 2 ** 63 - 1024],
  u64: [0, 2 ** 64 - 2048],
};

/**
 * `t.i64()`, `t.u64()`: a bigint within the kind's bounds (`BIGINT_RANGES`). A safe-integer
 * `number` within them stands for the same value: writers write it exactly, readers return it as
 * a bigint.
 */
export class BigIntRule implements ScalarRule {
  readonly min: bigint;
  readonly max: bigint;
  readonly expected: string;
  /** Whether the kind has negative values (the JSON direct scanner checks the bounds by sign and width). */
  readonly signed: boolean;
  // The bounds as doubles, to compare safe integers with: rounding moves a bound only beyond 2^53.
  private readonly minNumber: number;
  private readonly maxNumber: number;

  constructor(readonly kind: BigIntKind) {
    [this.min, this.max] = BIGINT_RANGES[kind];
    this.expected = `an integer (${kind})`;
    this.signed = this.min < 0n;
    this.minNumber = Number(this.min);
    this.maxNumber = Number(this.max);
  }

  is(v: unknown): boolean {
    return typeof v === 'bigint' ? this.accepts(v) : typeof v === 'number' && this.acceptsNumber(v);
  }

  /** `is` for a bigint: within the bounds. */
  accepts(b: bigint): boolean {
    return b >= this.min && b <= this.max;
  }

  /** `is` for a number: a safe integer within the bounds. */
  acceptsNumber(n: number): boolean {
    return Number.isSafeInteger(n) && n >= this.minNumber && n <= this.maxNumber;
  }

  /** The `out_of_range` message of reading and writing: `-1 is outside u64 (0..18446744073709551615)`. */
  outOfRange(shown: number | bigint | string): string {
    return `${shown} is outside ${this.kind} (${this.min}..${this.max})`;
  }

  isCode(x: string): string {
    return `(typeof ${x} === 'bigint' ? ${this.rangeCode(x)} : ${this.numberCode(x)})`;
  }

  /** `accepts` as JavaScript source, for an `x` known to be a bigint (or `undefined`, which fails it). */
  rangeCode(x: string): string {
    return `${x} >= ${this.min}n && ${x} <= ${this.max}n`;
  }

  /** `acceptsNumber` as JavaScript source; a bound no safe integer reaches is left out. */
  numberCode(x: string): string {
    let code = `Number.isSafeInteger(${x})`;
    if (this.minNumber > Number.MIN_SAFE_INTEGER) code += ` && ${x} >= ${this.minNumber}`;
    if (this.maxNumber < Number.MAX_SAFE_INTEGER) code += ` && ${x} <= ${this.maxNumber}`;
    return code;
  }

  schema(): JsonSchema {
    const [minimum, maximum] = SCHEMA_BOUNDS[this.kind];
    return { type: 'integer', minimum, maximum };
  }
}

/** The rules of each 64-bit kind. */
export const BIGINT_RULES: { readonly [K in BigIntKind]: BigIntRule } = {
  i64: new BigIntRule('i64'),
  u64: new BigIntRule('u64'),
};
