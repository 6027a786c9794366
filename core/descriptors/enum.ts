import { Type } from './type.ts';

export type EnumValue = string | number;

/** One of a fixed list of strings or numbers; an absent key defaults to the first. */
export class EnumType<V extends readonly EnumValue[] = readonly EnumValue[]> extends Type<V[number]> {
  readonly kind = 'enum';
  constructor(readonly values: V) {
    super();
    if (values.length === 0) throw new TypeError('t.enum() needs at least one value');
    const other = values.find((v) => typeof v !== 'string' && (typeof v !== 'number' || !Number.isFinite(v)));
    if (other !== undefined || values.some((v) => v === undefined)) {
      throw new TypeError(
        `t.enum(): the values are strings and finite numbers, got ${typeof other === 'number' ? other : typeof other}`,
      );
    }
    const notText = values.find((v) => typeof v === 'string' && !v.isWellFormed());
    if (notText !== undefined)
      throw new TypeError(`t.enum(): ${JSON.stringify(notText)} holds a lone surrogate, which no codec can write`);
  }
}
