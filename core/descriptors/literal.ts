import { Type } from './type.ts';

export type LiteralValue = string | number | boolean | null;

/** Exactly one value; an absent key defaults to it. */
export class LiteralType<V extends LiteralValue = LiteralValue> extends Type<V> {
  readonly kind = 'literal';
  constructor(readonly value: V) {
    super();
    const kind = value === null ? 'null' : typeof value;
    if (kind !== 'string' && kind !== 'number' && kind !== 'boolean' && kind !== 'null') {
      throw new TypeError(`t.literal(): a literal is a string, a number, a boolean or null, got ${kind}`);
    }
    if (typeof value === 'number' && !Number.isFinite(value))
      throw new TypeError(`t.literal(): ${value} is not a finite number, which no codec can write`);
    if (typeof value === 'string' && !value.isWellFormed())
      throw new TypeError(`t.literal(): ${JSON.stringify(value)} holds a lone surrogate, which no codec can write`);
  }
}
