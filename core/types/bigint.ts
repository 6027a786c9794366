import type { BigIntKind } from './ranges.ts';
import { Type } from './type.ts';

export type { BigIntKind } from './ranges.ts';

/** A 64-bit integer read as a `bigint`, exact on every codec; absent keys default to `0n`. */
export class BigIntType<K extends BigIntKind = BigIntKind> extends Type<bigint> {
  constructor(readonly kind: K) {
    super();
  }
}
