import { validateStringConstraints } from '../kinds/constraints.ts';
import type { StringConstraints } from '../kinds/constraint-options.ts';
import { Type } from './type.ts';

/** A UTF-8 text value; absent keys default to `''`. */
export class StringType extends Type<string> {
  readonly kind = 'string';
  /** Checked on read and write; `undefined` when there are none. */
  readonly constraints: StringConstraints | undefined;

  constructor(constraints?: StringConstraints) {
    super();
    this.constraints = validateStringConstraints(constraints);
  }
}
