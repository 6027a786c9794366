import { Type } from './type.ts';

export type LiteralValue = string | number | boolean | null;

/** Exactly one value; an absent key defaults to it. */
export class LiteralType<V extends LiteralValue = LiteralValue> extends Type<V> {
  readonly kind = 'literal';
  constructor(readonly value: V) {
    super();
    if (typeof value === 'string' && !value.isWellFormed()) throw new TypeError(`t.literal(): ${JSON.stringify(value)} holds a lone surrogate, which no codec can write`);
  }
}
