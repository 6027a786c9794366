import { validateCountConstraints } from '../kinds/constraints.ts';
import type { MapConstraints } from '../kinds/constraint-options.ts';
import { Type, type Infer, type InferInput } from './type.ts';

/** An object with arbitrary string keys and values of one descriptor; absent keys default to `{}`. */
export class MapType<V extends Type = Type> extends Type<Record<string, Infer<V>>, Record<string, InferInput<V>>> {
  readonly kind = 'map';
  /** Checked on read and write; `undefined` when there are none. */
  readonly constraints: MapConstraints | undefined;

  constructor(
    readonly values: V,
    constraints?: MapConstraints,
  ) {
    super();
    this.constraints = validateCountConstraints('t.map()', ['minProperties', 'maxProperties'], constraints);
  }
}
