import type { IntKind } from './ranges.ts';
import { Type } from './type.ts';

export type { IntKind } from './ranges.ts';

/** An integer read as a `number`, range-checked per kind; absent keys default to `0`. */
export class IntType<K extends IntKind = IntKind> extends Type<number> {
  constructor(readonly kind: K) {
    super();
  }
}
