import { validateNumberConstraints } from '../kinds/constraints.ts';
import type { NumberConstraints } from '../kinds/constraint-options.ts';
import type { FloatKind } from '../kinds/ranges.ts';
import { Type } from './type.ts';

export type { FloatKind } from '../kinds/ranges.ts';

/**
 * A finite floating-point number; absent keys default to `0`. `f32` values are rounded to
 * float32 when read and written as the shortest decimal that reads back to the same float32.
 */
export class FloatType<K extends FloatKind = FloatKind> extends Type<number> {
  /** Bounds, checked on read (after `f32` rounding) and write; `undefined` when there are none. */
  readonly constraints: NumberConstraints | undefined;

  constructor(
    readonly kind: K,
    constraints?: NumberConstraints,
  ) {
    super();
    this.constraints = validateNumberConstraints(kind, constraints) as NumberConstraints | undefined;
  }
}
