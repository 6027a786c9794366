import { validateCountConstraints } from '../kinds/constraints.ts';
import type { ArrayConstraints } from '../kinds/constraint-options.ts';
import { Type, type Infer, type InferInput } from './type.ts';

/** A list of values of one descriptor; absent keys default to `[]`. */
export class ArrayType<E extends Type = Type> extends Type<Infer<E>[], InferInput<E>[]> {
  readonly kind = 'array';
  /** Checked on read and write; `undefined` when there are none. */
  readonly constraints: ArrayConstraints | undefined;

  constructor(
    readonly element: E,
    constraints?: ArrayConstraints,
  ) {
    super();
    this.constraints = validateCountConstraints('t.array()', ['minItems', 'maxItems'], constraints);
  }
}
