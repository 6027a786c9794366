import { validateNumberConstraints } from '../kinds/constraints.ts';
import type { NumberConstraints } from '../kinds/constraint-options.ts';
import type { IntKind } from '../kinds/ranges.ts';
import { Type } from './type.ts';

export type { IntKind } from '../kinds/ranges.ts';

/** An integer read as a `number`, range-checked per kind; absent keys default to `0`. */
export class IntType<K extends IntKind = IntKind> extends Type<number> {
  /** Bounds besides the kind's own, checked on read and write; `undefined` when there are none. */
  readonly constraints: NumberConstraints | undefined;

  constructor(
    readonly kind: K,
    constraints?: NumberConstraints,
  ) {
    super();
    this.constraints = validateNumberConstraints(kind, constraints) as NumberConstraints | undefined;
  }
}
