import { validateNumberConstraints } from '../kinds/constraints.ts';
import type { BigIntOptions, NumberConstraints } from '../kinds/constraint-options.ts';
import type { BigIntKind } from '../kinds/ranges.ts';
import { Type } from './type.ts';

export type { BigIntKind } from '../kinds/ranges.ts';

/** A 64-bit integer read as a `bigint`, exact on every codec; absent keys default to `0n`. */
export class BigIntType<K extends BigIntKind = BigIntKind> extends Type<bigint> {
  /** Bounds besides the kind's own, as bigints; `undefined` when there are none. */
  readonly constraints: NumberConstraints<bigint> | undefined;
  /** The form of the value in JSON: a number (the default) or a string. */
  readonly json: 'number' | 'string';

  constructor(
    readonly kind: K,
    options: BigIntOptions = {},
  ) {
    super();
    const { json = 'number', ...bounds } = options;
    if (json !== 'number' && json !== 'string')
      throw new TypeError(`t.${kind}(): json is 'number' or 'string', got ${String(json)}`);
    this.json = json;
    this.constraints = validateNumberConstraints(kind, bounds) as NumberConstraints<bigint> | undefined;
  }
}
