import { Type } from './type.ts';

export type LiteralValue = string | number | boolean | null;

/** Exactly one value; an absent key defaults to it. */
export class LiteralType<V extends LiteralValue = LiteralValue> extends Type<V> {
  readonly kind = 'literal';
  constructor(readonly value: V) {
    super();
  }
}
